"""A turn of several decisions is private to its player until she confirms it (ruling S3, amended).

Canary tests: Red plays a card from her hand in the middle of a Topoum turn, and every output the
others can reach (the engine's view of their seat, the table page and its poll fragment, the log
export, the API's table detail, legal actions and action list, notifications and emails) is read
for the card; undo must leave nothing of it anywhere and give her hand back; her confirmation
shows it to everyone.  Then: what was revealed to her mid-turn (a crate seen, a third Topology
tile drawn) cannot be taken back, and Topology placements stay private until the turn is confirmed.
"""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.models import Action, Game
from games.selectors.positions import load_state
from notifications.events import game_effects_dispatch
from notifications.models import Notification
from tests.conftest import api_client_for
from tests.engine.topoum.topoum_positions import Position
from tests.games.tables import words_of
from tests.web.conftest import HX, client_for
from tests.web.helpers import legal, post_action, started_topology

pytestmark = pytest.mark.django_db

RED, BLUE = 0, 1
CARD = "slingshot"  # not in the table's deck types: any trace of it in another seat's output is the leak


def table_at(owner, member, state, kind="topoum", **options) -> Game:
    """A started two-player table (owner in seat 0) whose position is `state`, a real engine position."""
    game = services.game_create(user=owner, kind=kind, players=2, options=options)
    services.game_join(user=member, game_id=game.pk)
    services.game_start(user=owner, game_id=game.pk)
    Game.objects.filter(pk=game.pk).update(
        state=state.to_json(), to_act=state.to_act(), turn_marker=str(state.turn_marker())
    )
    game.refresh_from_db()
    assert game.seats.get(index=RED).user == owner and game.seats.get(index=BLUE).user == member
    return game


def red_with_a_slingshot():
    """Red's mole can step next to Blue's and shoot it with the Slingshot in her hand (ruling T14)."""
    pos = Position().area(2).mole(RED, (-1, 0)).mole(BLUE, (2, 0))
    pos.hand(RED, [CARD, "conquest"]).hand(BLUE, ["advance", "grenade"])
    pos.line(["grenade", "advance", "conquest", "short_range", "build_barracks"]).deck(["medal_of_honor"] * 8)
    return pos.build(cur=RED)


class Observers:
    """Everyone but the player to act: the other player, a logged-in outsider and an anonymous spectator, by every
    channel ("blue" names the other player)."""

    def __init__(self, game, member, outsider):
        self.game = game
        self.seat = game.seats.get(user=member).index
        self.people = [member, outsider]
        self.pages = {"blue": client_for(member), "outsider": client_for(outsider), "anonymous": Client()}
        self.api = {"blue": api_client_for(member), "outsider": api_client_for(outsider), "anonymous": APIClient()}

    def engine_views(self) -> dict:
        state = load_state(Game.objects.get(pk=self.game.pk))
        return {seat: state.view(seat) for seat in (self.seat, None)}

    def outputs(self) -> dict[str, str]:
        """Every text the others can read now, by where it came from."""
        pk = self.game.pk
        game_effects_dispatch(game_id=pk)  # whatever a notification would tell them is written now
        out = {f"engine view {seat}": json.dumps(v) for seat, v in self.engine_views().items()}
        for who, client in self.pages.items():
            out[f"{who} page"] = client.get(f"/tables/{pk}/").content.decode()
            out[f"{who} poll"] = client.get(f"/tables/{pk}/poll/?stamp=x", **HX).content.decode()
            out[f"{who} log export"] = client.get(f"/tables/{pk}/log.json").content.decode()
        for who, api in self.api.items():
            out[f"{who} api detail"] = json.dumps(api.get(f"/api/tables/{pk}/").data)
            if who != "anonymous":
                out[f"{who} api actions"] = json.dumps(api.get(f"/api/tables/{pk}/actions/").data)
                out[f"{who} api legal"] = json.dumps(api.get(f"/api/tables/{pk}/legal-actions/").data)
        texts = words_of(Notification.objects.filter(recipient__in=self.people))
        out["notifications"] = "\n".join(texts)
        out["emails"] = "\n".join(m.subject + m.body for m in mail.outbox if set(m.to) & {p.email for p in self.people})
        return out

    def api_views(self) -> dict:
        return {who: api.get(f"/api/tables/{self.game.pk}/").data["view"] for who, api in self.api.items()}

    def assert_nothing_of(self, *words):
        for where, text in self.outputs().items():
            for word in words:
                assert word.lower() not in text.lower(), f"{where} shows {word!r}"


def act(client, game, action) -> None:
    game.refresh_from_db()
    reply = post_action(client, game, action, game.version, **HX)
    assert reply.status_code == 200, reply.content.decode()[:400]


RED_TURN = [
    {"type": "move", "from": [-1, 0], "to": [0, 0]},
    {"type": "play", "card": CARD, "source": "hand"},
    {"type": "target", "hex": [2, 0]},
]


def test_a_card_played_from_her_hand_shows_to_nobody_else_until_she_confirms(owner, member, outsider):
    game = table_at(owner, member, red_with_a_slingshot())
    red = client_for(owner)
    others = Observers(game, member, outsider)
    others.assert_nothing_of(CARD)  # the canary: before the turn nobody else can see the card anywhere
    views_before, api_before = others.engine_views(), others.api_views()

    for action in RED_TURN:
        act(red, game, action)
    mine = load_state(Game.objects.get(pk=game.pk)).view(RED)
    assert (
        mine["pile"] == [CARD]
        and mine["hand"] == ["conquest"]
        and f"{owner.username} plays Slingshot" in red.get(f"/tables/{game.pk}/").content.decode()
    )  # she sees her whole turn
    others.assert_nothing_of(CARD, "plays", "aims")
    assert others.engine_views() == views_before and others.api_views() == api_before  # the table as it began
    assert Action.objects.filter(game=game, visibility=Action.Visibility.PRIVATE).count() == 3

    for _ in RED_TURN:  # ruling S3: she takes it all back
        act(red, game, {"type": "undo"})
    state = load_state(Game.objects.get(pk=game.pk))
    assert state.view(RED)["hand"] == [CARD, "conquest"] and state.view(RED)["pile"] == []
    assert state.mole[state.geo.cell((2, 0))] == BLUE and not state.undoable(RED)
    others.assert_nothing_of(CARD, "plays", "aims", "takes back")
    assert others.engine_views() == views_before and others.api_views() == api_before
    assert not Action.objects.filter(game=game, visibility=Action.Visibility.PRIVATE).exists()

    for action in RED_TURN + [{"type": "end_turn"}]:
        act(red, game, action)
    outputs = others.outputs()
    for who in ("blue", "outsider", "anonymous"):
        assert "Slingshot" in outputs[f"{who} page"], who
        assert f"{owner.username} plays Slingshot from the hand" in outputs[f"{who} log export"], who
        assert "takes back" not in outputs[f"{who} log export"], who  # what she took back stays hers
        assert api_before[who] != others.api_views()[who]
    for view in others.engine_views().values():
        assert view["piles"][RED]["top"] == CARD and all(c.get("mole") != BLUE for c in view["board"])
    name = owner.username  # decision 13: the player's name, not her colour
    log = others.api["blue"].get(f"/api/tables/{game.pk}/actions/").data["results"]
    assert [row["description"].split(":")[0].rstrip(".") for row in log] == [
        f"{name} moves a mole from (-1,0) to (0,0)",
        f"{name} plays Slingshot from the hand",
        f"{name} aims Slingshot at (2,0)",
        f"{name} ends the turn",
    ]


def test_her_own_log_keeps_what_she_took_back_and_the_others_never_see_it(owner, member, outsider):
    game = table_at(owner, member, red_with_a_slingshot())
    red = client_for(owner)
    act(red, game, RED_TURN[0])
    act(red, game, RED_TURN[1])
    act(red, game, {"type": "undo"})
    mine = api_client_for(owner).get(f"/api/tables/{game.pk}/actions/").data["results"]
    assert [row["action"]["type"] for row in mine] == ["move", "play", "undo"]
    act(red, game, {"type": "change_tile"})
    act(red, game, {"type": "end_turn"})
    theirs = api_client_for(member).get(f"/api/tables/{game.pk}/actions/").data["results"]
    assert [row["seq"] for row in theirs] == [1, 4, 5]  # the taken-back play and the undo are hers alone
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    finished = api_client_for(member).get(f"/api/tables/{game.pk}/actions/").data["results"]
    assert [row["seq"] for row in finished] == [1, 2, 3, 4, 5]  # once over, the whole log re-runs (ruling G0.2)


def test_a_crate_she_looked_at_cannot_be_taken_back_and_stays_hers_until_she_confirms(owner, member, outsider):
    # ruling T8: stepping onto a crate shows her its value; ruling S3: undo stops there.
    pos = Position(farmer="lord_of_the_crates").area(3).mole(RED, (-1, 0)).hand(RED, ["advance", "conquest"])
    state = pos.crate(2, (0, 0)).crates([0, 2, 3, 5]).deck(["medal_of_honor"] * 8).build(cur=RED)
    game = table_at(owner, member, state)
    red, red_api = client_for(owner), api_client_for(owner)
    others = Observers(game, member, outsider)
    views_before = others.engine_views()

    act(red, game, {"type": "move", "from": [-1, 0], "to": [0, 0]})
    game.refresh_from_db()
    assert {"type": "undo"} not in legal(game, RED)
    refused = red_api.post(
        f"/api/tables/{game.pk}/actions/", {"action": {"type": "undo"}, "expected_version": game.version}, format="json"
    )
    assert refused.status_code == 400
    assert load_state(Game.objects.get(pk=game.pk)).view(RED)["crates_known"] == {"2": 3}
    assert others.engine_views() == views_before  # that she looked is part of her turn, shown on confirmation
    others.assert_nothing_of("looks at the crate")

    act(red, game, {"type": "change_tile"})
    assert {"type": "undo"} in legal(game, RED)  # a decision after the look can still be taken back ...
    act(red, game, {"type": "undo"})
    assert {"type": "undo"} not in legal(game, RED)  # ... but not the step that showed her the crate
    act(red, game, {"type": "change_tile"})
    act(red, game, {"type": "end_turn"})
    outputs = others.outputs()
    assert f"{owner.username} looks at the crate at (0,0)" in outputs["blue log export"]
    crate = next(c for c in load_state(Game.objects.get(pk=game.pk)).view(BLUE)["board"] if c["hex"] == [0, 0])
    assert crate["seen_by"] == [RED] and "value" not in crate


def test_topology_placements_show_to_the_others_once_the_turn_is_confirmed(owner, member, outsider):
    game = started_topology(owner, member)
    seat = game.to_act[0]
    me = client_for(game.seats.get(index=seat).user)
    other = game.seats.get(index=1 - seat).user
    others = Observers(game, other, outsider)
    state = load_state(game)
    before = {s: state.view(s) for s in (1 - seat, None)}
    assert len(before[None]["revealed"]) == 3  # revealed at the start of her turn: everyone sees them (ruling L5)

    place = next(a for a in legal(game, seat) if a["type"] == "place")
    act(me, game, place)
    state = load_state(Game.objects.get(pk=game.pk))
    assert {s: state.view(s) for s in (1 - seat, None)} == before
    assert place["tile"] in state.view(seat)["placed_this_turn"]
    others.assert_nothing_of("placed a tile")
    act(me, game, {"type": "undo"})
    others.assert_nothing_of("placed a tile", "took back")

    game.refresh_from_db()
    while game.to_act == [seat]:
        act(me, game, next(a for a in legal(game, seat) if a["type"] in ("place", "end_turn")))
        game.refresh_from_db()
    seen = load_state(game).view(None)
    assert len(seen["board"]) == len(before[None]["board"]) + 3
    log = others.outputs()["blue log export"]
    assert log.count("placed a tile") == 3 and "took back" not in log


def test_a_third_topology_tile_drawn_cannot_be_taken_back_and_shows_on_confirmation(owner, member, outsider):
    # ruling L6: the advanced variant reveals two tiles, then a third on request; ruling S3: a draw is final.
    game = started_topology(owner, member, advanced=True)
    seat = game.to_act[0]
    me, my_api = client_for(game.seats.get(index=seat).user), api_client_for(game.seats.get(index=seat).user)
    others = Observers(game, game.seats.get(index=1 - seat).user, outsider)
    before = others.engine_views()

    act(me, game, {"type": "reveal"})
    game.refresh_from_db()
    mine = load_state(game).view(seat)
    third = mine["revealed"][-1]
    assert len(mine["revealed"]) == 3 and {"type": "undo"} not in legal(game, seat)
    refused = my_api.post(
        f"/api/tables/{game.pk}/actions/", {"action": {"type": "undo"}, "expected_version": game.version}, format="json"
    )
    assert refused.status_code == 400 and "cannot be taken back" in refused.data["detail"]
    assert others.engine_views() == before and third not in before[None]["revealed"]
    others.assert_nothing_of("revealed a third tile")

    place = next(a for a in legal(game, seat) if a["type"] == "place")
    act(me, game, place)
    assert {"type": "undo"} in legal(game, seat)
    act(me, game, {"type": "undo"})
    assert {"type": "undo"} not in legal(game, seat)
    while game.to_act == [seat]:
        act(me, game, next(a for a in legal(game, seat) if a["type"] in ("place", "end_turn")))
        game.refresh_from_db()
    assert third in {t["tile"] for t in others.engine_views()[None]["board"]}
    assert "revealed a third tile" in others.outputs()["blue log export"]

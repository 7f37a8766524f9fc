"""Toppo in the site: a whole correspondence match over HTTP with three users; one claim per version."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Action, Game

pytestmark = pytest.mark.django_db

PREFERENCE = ("toppo", "top", "match", "choose_display", "renew")


def best_claim(actions, stuck=False):
    """What a keen player claims: toppo, then a top, then a match, else renew.

    After many rounds with nothing laid she asks for a new display, and agrees when asked
    (ruling P6), as players do with a display nobody can top.
    """
    kinds = (("agree_replace", "propose_replace") if stuck else ()) + PREFERENCE
    for kind in kinds:
        for action in actions:
            if action["type"] == kind:
                return action
    return None


def test_it_plays_a_whole_correspondence_match_over_http(owner_api, member_api, outsider_api):
    created = owner_api.post(
        "/api/tables/", {"game": "toppo", "players": 3, "options": {"hands": 2}, "auto_start": False}, format="json"
    )
    assert created.status_code == 201, created.data
    assert created.data["options"]["pace"] == "correspondence"
    table = created.data["id"]
    for client in (member_api, outsider_api):
        assert client.post(f"/api/tables/{table}/join/").status_code == 200
    assert owner_api.post(f"/api/tables/{table}/start/", {}, format="json").status_code == 200

    clients = [owner_api, member_api, outsider_api]
    rounds_with_several_claimants = 0
    quiet = 0  # claims in a row that laid nothing
    for _ in range(20000):
        detail = owner_api.get(f"/api/tables/{table}/").data
        if detail["status"] != "running":
            break
        waiting = [s["index"] for s in detail["seats"] if s["to_act"]]
        assert waiting, "a running Toppo game always waits for someone"
        rounds_with_several_claimants += len(waiting) > 1
        seat = waiting[0]
        mine = clients[seat].get(f"/api/tables/{table}/legal-actions/").data
        claim = best_claim(mine["actions"], stuck=quiet > 60)
        quiet = 0 if claim["type"] in ("top", "match", "toppo", "agree_replace") else quiet + 1
        reply = clients[seat].post(
            f"/api/tables/{table}/actions/", {"action": claim, "expected_version": mine["version"]}, format="json"
        )
        assert reply.status_code == 200, reply.data
    final = owner_api.get(f"/api/tables/{table}/").data
    assert final["status"] == "finished"
    assert rounds_with_several_claimants > 10, "several seats decide at once in a round"
    totals = final["view"]["totals"]
    for seat in final["seats"]:
        assert seat["score"] == totals[seat["index"]]
        assert seat["rank"] == 1 + sum(t < totals[seat["index"]] for t in totals)
    log = owner_api.get(f"/api/tables/{table}/actions/").data["results"]
    assert [row["seq"] for row in log] == list(range(1, len(log) + 1))


def test_anothers_sealed_claim_does_not_make_hers_stale_but_an_earlier_round_does(owner, member, outsider):
    from games.errors import StaleVersion

    game = services.game_create(user=owner, kind="toppo", players=3)
    services.game_join(user=member, game_id=game.pk)
    services.game_join(user=outsider, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    assert sorted(game.to_act) == [0, 1, 2]
    services.action_submit(game_id=game.pk, user=owner, action={"type": "renew"}, expected_version=0)
    # The member's page still shows version 0: the owner's claim is sealed and changed nothing she decides on.
    services.action_submit(game_id=game.pk, user=member, action={"type": "renew"}, expected_version=0)
    # Her own claim is in: the same page sending again (a double click, a second tab) is refused.
    with pytest.raises(StaleVersion):
        services.action_submit(game_id=game.pk, user=member, action={"type": "renew"}, expected_version=0)
    services.action_submit(game_id=game.pk, user=outsider, action={"type": "renew"}, expected_version=1)
    assert list(Action.objects.filter(game=game).values_list("seat", flat=True)) == [0, 1, 2]
    game.refresh_from_db()
    assert game.turn_version == 3 and sorted(game.to_act) == [0, 1, 2]  # the round resolved, a new one began
    with pytest.raises(StaleVersion):  # a page from the last round cannot claim in this one
        services.action_submit(game_id=game.pk, user=owner, action={"type": "renew"}, expected_version=2)


def test_the_round_deadline_renews_for_whoever_has_not_claimed(owner, member, outsider):
    game = services.game_create(user=owner, kind="toppo", players=3, turn_seconds=86400)
    services.game_join(user=member, game_id=game.pk)
    services.game_join(user=outsider, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    marker = game.turn_marker
    services.action_submit(game_id=game.pk, user=owner, action={"type": "renew"}, expected_version=0)
    game.refresh_from_db()
    assert sorted(game.to_act) == [1, 2]
    game.seats.filter(index__in=[1, 2]).update(deadline=timezone.now() - timedelta(seconds=1))
    services.deadline_expire(game_id=game.pk, seat=1, version=1)
    services.deadline_expire(game_id=game.pk, seat=2, version=2)
    game.refresh_from_db()
    timeouts = list(Action.objects.filter(game=game, source="timeout").values_list("seat", "action"))
    assert timeouts == [(1, {"type": "renew"}), (2, {"type": "renew"})]  # ruling P4: no claim = renew
    assert sorted(game.to_act) == [0, 1, 2] and game.turn_marker != marker, "a new round began"
    deadlines = {s.index: s.deadline for s in game.seats.all()}
    assert all(d > timezone.now() + timedelta(hours=23) for d in deadlines.values()), "every clock restarted"
    assert {s.index: s.missed_deadlines for s in game.seats.all()} == {0: 0, 1: 1, 2: 1}


def test_live_pace_is_only_for_toppo_and_takes_seconds(owner):
    game = services.game_create(user=owner, kind="toppo", players=2, pace="live", turn_seconds=30)
    assert game.options["pace"] == "live" and game.turn_seconds == 30
    assert Game.objects.get(pk=game.pk).pace == "live"


def test_live_shouts_are_judged_in_arrival_order_even_from_a_page_a_moment_behind(owner, member):
    """Ruling P3: at a live pace the server applies actions as they arrive; the lock orders them."""
    from engine.core import get_game

    game = services.game_create(user=owner, kind="toppo", players=2, pace="live", turn_seconds=30)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    users = {0: owner, 1: member}
    engine = get_game("toppo")
    # Both reveal from the version they saw at the start: the second is a moment behind, and still counts.
    state = engine.load(Game.objects.get(pk=game.pk).state)
    restarter = state.view(None).get("restarter")
    first = restarter if restarter is not None else 0
    services.action_submit(game_id=game.pk, user=users[first], action={"type": "reveal"}, expected_version=0)
    services.action_submit(game_id=game.pk, user=users[1 - first], action={"type": "reveal"}, expected_version=0)
    assert Game.objects.get(pk=game.pk).version == 2
    assert list(Action.objects.filter(game=game).values_list("seat", flat=True)) == [first, 1 - first]
    from games.errors import StaleVersion

    with pytest.raises(StaleVersion):  # a version from the future is nonsense at any pace
        services.action_submit(game_id=game.pk, user=owner, action={"type": "reveal"}, expected_version=9)

"""Topoum at the table: the battlefield, the click paths the page offers, hidden information, refusals."""

import json
import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from boards import registry
from boards.topoum import presenter as tm
from engine.core import canonical, get_game
from games import selectors, services
from games.models import Game
from games.selectors.positions import load_state
from tests.web.conftest import HX
from tests.web.helpers import legal, post_action

pytestmark = pytest.mark.django_db

# Strategists has "Farmer is coming!"; Lord of the Crates puts four face-down crates on the board (ruling T8).
OPTIONS = {"deck": "preset", "preset": "strategists", "farmer": "lord_of_the_crates"}


def started(owner, member, **options) -> Game:
    game = services.game_create(user=owner, kind="topoum", players=2, options={**OPTIONS, **options})
    services.game_join(user=member, game_id=game.pk)
    return services.game_start(user=owner, game_id=game.pk)


def acting(game, clients):
    game.refresh_from_db()
    seat = game.to_act[0]
    return seat, clients[game.seats.get(index=seat).user_id], clients[game.seats.get(index=1 - seat).user_id]


def page(client, game) -> str:
    return client.get(f"/tables/{game.pk}/").content.decode()


def page_paths(html: str):
    """The click paths the page embeds for its script (None when the visitor has nothing to decide)."""
    found = re.search(r'<script id="topoum-paths" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(found.group(1)) if found else None


def highlighted(html: str) -> set[str]:
    return set(re.findall(r'<polygon class="hot on[^"]*" points="[^"]*" data-key="([^"]+)"', html))


def play_setup_from_pages(game, clients) -> int:
    """Every setup placement chosen from the page's own click paths; returns how many were made."""
    made = 0
    while True:
        game.refresh_from_db()
        if load_state(game).phase != "setup":
            return made
        seat, me, _ = acting(game, clients)
        paths = page_paths(page(me, game))
        reply = post_action(me, game, paths[-1]["action"], game.version, **HX)
        assert reply.status_code == 200, reply.content.decode()[:400]
        made += 1


def test_the_battlefield_has_every_space_and_the_setup_choice_highlighted(
    owner, member, clients, client, outsider_client
):
    game = started(owner, member)
    seat, me, other = acting(game, clients)
    html = page(me, game)
    assert len(re.findall(r'<polygon class="space', html)) == 127  # ruling T1: radius 6
    assert len(re.findall(r'class="x-mark"', html)) == 6 and len(re.findall(r'class="zone-mark"', html)) == 4  # T2
    assert "Lay the centre tile of the battlefield." in html and "Your setup placement." in html
    assert highlighted(html) == {f"{a['hex'][0]},{a['hex'][1]}" for a in legal(game, seat)} == {"0,0"}
    theirs = page(other, game)
    who = owner.username if seat == 0 else member.username  # decision 26: her decision is not worded to the other
    assert 'class="tm-board"' in theirs and f"It is {who}'s turn." in theirs and page_paths(theirs) is None
    assert "Lay the centre tile" not in theirs
    assert not highlighted(theirs)
    for visitor in (client, outsider_client):
        reply = visitor.get(f"/tables/{game.pk}/")
        html = reply.content.decode()
        assert reply.status_code == 200 and 'class="tm-board"' in html and "Your hand" not in html
        assert page_paths(html) is None


def test_the_page_offers_exactly_the_legal_actions_and_plays_the_setup(owner, member, clients):
    game = started(owner, member)
    seen_steps = set()
    while True:
        game.refresh_from_db()
        state = load_state(game)
        if state.phase != "setup":
            break
        seen_steps.add(state.step)
        seat, me, _ = acting(game, clients)
        html = page(me, game)
        paths = page_paths(html)
        assert sorted(canonical(p["action"]) for p in paths) == sorted(canonical(a) for a in legal(game, seat))
        assert highlighted(html) == {p["path"][0] for p in paths}
        before = game.version
        assert post_action(me, game, paths[0]["action"], game.version, **HX).status_code == 200
        game.refresh_from_db()
        assert game.version == before + 1
    assert seen_steps == {"centre", "ring", "mole"}  # no obstacles in this game (ruling T16 is a variant)
    html = page(clients[owner.pk], game)
    assert html.count('class="tile barracks c-red"') == 2 and html.count('class="tile barracks c-blue"') == 2
    assert html.count('class="mole m-red') == 1 and html.count('class="mole m-blue') == 1
    assert html.count('<use class="feature" href="#tm-crate"') == 4  # Lord of the Crates' crates on the zones


def test_a_move_is_a_two_click_path_from_a_mole_of_hers(owner, member, clients):
    game = started(owner, member)
    play_setup_from_pages(game, clients)
    seat, me, _ = acting(game, clients)
    html = page(me, game)
    colour = tm.COLOUR_NAMES[seat]
    moves = [p for p in page_paths(html) if p["action"]["type"] == "move"]
    assert moves, "a mole that just came in can move at the start of the first turn"
    for p in moves:
        src, dst = p["path"]
        assert src == "{},{}".format(*p["action"]["from"]) and dst == "{},{}".format(*p["action"]["to"])
        cell = re.search(rf'<g class="cell" data-cell="{src}">(.*?)</g>\s*</g>', html, re.S).group(1)
        assert f'class="mole m-{colour}' in cell
    # Destinations are drawn (not yet lit) so that the script can light them once the mole is picked.
    drawn = set(re.findall(r'<polygon class="hot[^"]*" points="[^"]*" data-key="([^"]+)"', html))
    assert {p["path"][1] for p in moves} <= drawn
    assert not ({p["path"][1] for p in moves} - {p["path"][0] for p in page_paths(html)}) & highlighted(html)


def test_a_whole_turn_by_the_pages_paths_with_undo_and_end_turn(owner, member, clients):
    game = started(owner, member)
    play_setup_from_pages(game, clients)
    seat, me, _ = acting(game, clients)
    kinds = []
    for _ in range(12):
        game.refresh_from_db()
        html = page(me, game)
        paths = page_paths(html) or []
        choices = [p for p in paths if p["action"]["type"] != "move"] or paths
        if not choices:
            break
        # A card click is a path of its own: the button is lit exactly when the play is legal.
        for p in paths:
            if p["path"][0].startswith(("hand:", "line:")):
                button = re.search(rf'<button type="button" class="tm-card[^"]*" data-key="{p["path"][0]}"[^>]*>', html)
                assert button and "disabled" not in button.group(0)
        choice = choices[0]
        kinds.append(choice["action"]["type"])
        reply = post_action(me, game, choice["action"], game.version, **HX)
        assert reply.status_code == 200, reply.content.decode()[:400]
        if len(kinds) == 1:
            assert "Undo" in reply.content.decode()  # ruling S3: the first decision can be taken back
    assert kinds[0] in ("enter", "place", "move") and "play" in kinds
    game.refresh_from_db()
    html = page(me, game)
    assert "End turn" in html and page_paths(html) is not None
    end = {"type": "end_turn"}
    assert post_action(me, game, end, game.version, **HX).status_code == 200
    game.refresh_from_db()
    assert game.to_act == [1 - seat]
    assert "ends the turn" in page(me, game)


def test_hidden_information_never_reaches_a_page(owner, member, clients, client, outsider_client):
    # ruling G0.3: no other hand, no deck order, no unseen crate value, no seed.
    game = started(owner, member)
    play_setup_from_pages(game, clients)
    engine = get_game("topoum")
    state = load_state(game)
    planted = engine.plant_secrets(state)
    Game.objects.filter(pk=game.pk).update(state=state.to_json())
    game.refresh_from_db()
    assert planted[None] and planted[0] and planted[1]
    visitors = {
        0: clients[game.seats.get(index=0).user_id],
        1: clients[game.seats.get(index=1).user_id],
        None: client,
        "outsider": outsider_client,
    }
    for who, visitor in visitors.items():
        for html in (page(visitor, game), visitor.get(f"/tables/{game.pk}/poll/?stamp=x", **HX).content.decode()):
            assert 'class="tm-board"' in html
            for owner_of, markers in planted.items():
                for marker in markers:
                    if owner_of is not None and owner_of == who:
                        continue  # her own hand and pile
                    assert marker not in html, (who, marker)
            assert game.seed not in html
    # Her own hand is drawn for her (the planted names), with its name on the card.
    mine = page(visitors[0], game)
    assert "SECRET-hand-0-0" in mine and "SECRET-hand-1-0" not in mine


def test_a_crate_value_shows_only_to_the_seat_that_looked(owner, member, clients):
    # ruling T8: a player learns a crate's value when her mole reaches it; only she sees it.
    game = started(owner, member)
    play_setup_from_pages(game, clients)
    state = load_state(game)
    state.crate_known[0] = [2]
    value = state.crate_values[2]
    Game.objects.filter(pk=game.pk).update(state=state.to_json())
    game.refresh_from_db()
    where = next(c["hex"] for c in state.view(0)["board"] if c.get("crate") == 2)

    def crate_text(html):
        cell = re.search(rf'data-cell="{where[0]},{where[1]}">(.*?)</g>\s*</g>', html, re.S).group(1)
        return re.search(r'<text class="crate-value"[^>]*>([^<]*)</text>', cell).group(1)

    assert crate_text(page(clients[game.seats.get(index=0).user_id], game)) == str(value)
    assert crate_text(page(clients[game.seats.get(index=1).user_id], game)) == "?"


def test_a_stale_submit_shows_the_fresh_board(owner, member, clients):
    game = started(owner, member)
    seat, me, _ = acting(game, clients)
    centre = page_paths(page(me, game))[0]["action"]
    assert post_action(me, game, centre, 0, **HX).status_code == 200
    seat, me, _ = acting(game, clients)
    ring = page_paths(page(me, game))[0]["action"]
    reply = post_action(me, game, ring, 0, **HX)  # the page still showed version 0
    html = reply.content.decode()
    assert reply.status_code == 409 and "The game moved on" in html and 'name="version" value="1"' in html
    game.refresh_from_db()
    assert game.version == 1


def test_an_illegal_submit_shows_the_engines_reason(owner, member, clients):
    game = started(owner, member)
    seat, me, other = acting(game, clients)
    reply = post_action(me, game, {"type": "place", "hex": [3, 3]}, game.version, **HX)
    html = reply.content.decode()
    assert reply.status_code == 400 and "That choice at (3,3) is not allowed now." in html
    assert 'class="tm-board"' in html and page_paths(html)  # the board is drawn again, still hers to play
    reply = post_action(other, game, {"type": "place", "hex": [0, 0]}, game.version, **HX)
    assert reply.status_code == 400 and "not your turn" in reply.content.decode()
    game.refresh_from_db()
    assert game.version == 0


def test_click_paths_of_the_other_decisions():
    """Directions, farmer tiles from beside the board, 'no crate', obstacle kinds and risky moves."""
    # The move words come from the view's move_outcomes (what the engine will do), not from the board.
    view = {
        "options": {"radius": 6, "line_values": [-2, -1, 0, 1, 2]},
        "phase": "play",
        "step": "",
        "turn": {"pending": {"k": "direction", "card": "panic_attack", "m": [0, 0]}},
        "move_outcomes": [
            {"from": [0, 0], "to": [1, 0], "at": [1, 0], "outcome": "lost", "feature": "puddle", "penalty": 5},
            {"from": [0, 0], "to": [-7, 0], "at": None, "outcome": "lost", "feature": None, "penalty": 5},
        ],
    }
    legal_now = [
        {"type": "direction", "dir": 0},
        {"type": "direction", "dir": 3},
        {"type": "target", "hex": [2, 0], "from": None},
        {"type": "target", "hex": [2, 0], "from": [3, 0]},
        {"type": "target", "hex": None},
        {"type": "move", "from": [0, 0], "to": [1, 0]},
        {"type": "move", "from": [0, 0], "to": [-7, 0]},
        {"type": "play", "card": "advance", "source": "line", "slot": 1},
    ]
    paths = {canonical(p["action"]): p for p in tm.click_paths(view, legal_now, 0)}
    assert paths[canonical(legal_now[0])]["path"] == ["dir:0"] and "→" in paths[canonical(legal_now[0])]["label"]
    assert paths[canonical(legal_now[2])]["path"] == ["beside", "2,0"]
    assert paths[canonical(legal_now[3])]["path"] == ["3,0", "2,0"]
    assert paths[canonical(legal_now[4])]["path"] == ["none"]
    assert "eliminated" in paths[canonical(legal_now[5])]["label"]  # onto a puddle (ruling T16)
    assert "eliminated" in paths[canonical(legal_now[6])]["label"]  # off the board (ruling T12)
    assert "-2 medals" in paths[canonical(legal_now[7])]["label"]  # slot 1 (ruling T5)
    setup = {
        "options": {"radius": 6, "line_values": [-2, -1, 0, 1, 2]},
        "phase": "setup",
        "step": "obstacle",
        "turn": {"pending": None},
    }
    kinds = [{"type": "obstacle", "kind": k, "hex": [2, -1]} for k in ("rock", "puddle", "gas", "ice")]
    keys = {tuple(p["path"]) for p in tm.click_paths(setup, kinds, 1)}
    assert keys == {("2,-1",)}  # one space, four choices offered together


def test_the_direction_picker_and_lines_of_sight_are_drawn(owner, member, clients):
    game = started(owner, member)
    play_setup_from_pages(game, clients)
    seat, me, _ = acting(game, clients)
    user = game.seats.get(index=seat).user
    detail = selectors.table_detail(game, user)
    mole = next(c["hex"] for c in detail["view"]["board"] if c.get("mole") == seat)
    detail["view"]["turn"]["pending"] = {"k": "direction", "card": "panic_attack", "m": mole}
    detail["view"]["decision"]["prompt"] = {"code": "topoum.prompt.direction", "card": "panic_attack"}
    detail["legal_actions"] = [{"type": "direction", "dir": 1}, {"type": "direction", "dir": 4}, {"type": "undo"}]
    detail["undoable"] = True
    detail["view"]["new_lines"] = [{"from": mole, "to": [mole[0] + 2, mole[1]], "medals": 4}]
    names = ["ana", "bruno"]
    board = registry.present("topoum", detail, names)
    html = render_to_string("boards/topoum/board.html", {"board": board, "game": game, "detail": detail})
    assert html.count('class="hot-arrow on" data-key="dir:') == 2
    assert html.count('class="secondary tm-dir" data-key="dir:') == 2
    assert "Choose a direction for Panic Attack." in html and "Undo" in html
    assert 'class="tm-los"' in html and "Ending now scores 1 new line of sight: 4 medals." in html


def test_a_deadly_square_is_ringed_named_and_explained(owner, member, clients):
    """Rulings T12, T16, T17: a mole entering a puddle, gas, trap, footprint or dynamite is eliminated; the board
    rings exactly those squares the view calls deadly, says so in each one's name, and the legend explains the ring."""
    game = started(owner, member)
    play_setup_from_pages(game, clients)
    seat, _, _ = acting(game, clients)
    detail = selectors.table_detail(game, game.seats.get(index=seat).user)
    cells = detail["view"]["board"]
    for cell in cells:
        cell.pop("deadly", None)
    plain, marked = cells[0], cells[1]
    marked.update(feature="trap", deadly=True)
    plain.pop("feature", None)
    board = registry.present("topoum", detail, ["ana", "bruno"])
    html = render_to_string("boards/topoum/board.html", {"board": board, "game": game, "detail": detail})
    assert html.count('class="deadly-ring"') == 1
    ringed = html.split('class="deadly-ring"')[0].rsplit("<title>", 1)[1]
    assert ringed.startswith(f"space {marked['hex'][0]},{marked['hex'][1]}") and "deadly" in ringed.split("</title>")[0]
    names = {t["key"]: t["label"] for t in board["board"]["tiles"]}
    assert "deadly" not in names[f"{plain['hex'][0]},{plain['hex'][1]}"]
    assert "deadly (a mole that enters is eliminated)" in html and 'class="tm-swatch legend deadly"' in html
    with translation.override("es"):
        board = registry.present("topoum", detail, ["ana", "bruno"])
        assert (
            "mortal"
            in {t["key"]: t["label"] for t in board["board"]["tiles"]}[f"{marked['hex'][0]},{marked['hex'][1]}"]
        )


def test_a_finished_war_shows_the_final_scoring_and_every_crate(owner, member, clients, client):
    # ruling T20 (final scoring) and RULES_NOTES 32: crate values are shown to everybody once the game is over.
    import random

    game = started(owner, member)
    state = load_state(game)
    rng = random.Random(5)
    while not state.is_over():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    Game.objects.filter(pk=game.pk).update(state=state.to_json(), to_act=[], status=Game.Status.FINISHED)
    game.refresh_from_db()
    html = page(client, game)
    assert "The war is over." in html and "Final scoring: categories" in html and "rank 1" in html
    assert page_paths(html) is None and "/poll/" not in html
    on_board = [c for c in state.view(None)["board"] if c.get("feature") == "crate"]
    shown = re.findall(r'<text class="crate-value"[^>]*>([^<]*)</text>', html)
    assert len(shown) == len(on_board) and all(v == str(c["value"]) for v, c in zip(shown, on_board))

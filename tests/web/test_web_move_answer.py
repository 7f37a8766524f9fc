"""The htmx answer to a taken move (decision 16): only the parts a move changes, out of band, each by the id the table
page gives it, drawn from the mover's own view; the log part brings only the lines after the page's last one."""

import re

import pytest

from engine.core import get_game
from games import services
from games.models import Game
from games.selectors.positions import load_state
from tests.web.conftest import HX
from tests.web.helpers import legal, post_action

pytestmark = pytest.mark.django_db

FRAGMENTS = ["table-notices", "table-board", "table-players", "table-poller"]  # in games/_move_answer.html's order


def mark(html: str) -> str:
    """What the page's log holds, as its htmx requests say (X-Topos-Log)."""
    return re.search(r'"X-Topos-Log": "(\d+:\d+)"', html).group(1)


def top_level_ids(html: str) -> list[str]:
    """The ids of the answer's out-of-band parts swapped whole (hx-swap-oob="true"), in order."""
    return re.findall(r'<\w+ id="([\w-]+)"[^>]*hx-swap-oob="true"', html)


def new_log_lines(html: str) -> list[str] | None:
    """The lines the answer puts on top of the page's log (None: it has no such part)."""
    part = html.split('<div hx-swap-oob="afterbegin:#log-lines">')
    return re.findall(r"<li>.*?</li>", part[1].split("</div>")[0]) if len(part) > 1 else None


def acting(game, clients):
    game.refresh_from_db()
    seat = game.to_act[0]
    return seat, clients[game.seats.get(index=seat).user_id], clients[game.seats.get(index=1 - seat).user_id]


def started_toppo(owner, member) -> Game:
    game = services.game_create(user=owner, kind="toppo", players=2, options={"hands": 3})
    services.game_join(user=member, game_id=game.pk)
    return services.game_start(user=owner, game_id=game.pk)


def plain_move(game, seat) -> dict:
    moves = [a for a in legal(game, seat) if a.get("type") != "undo"]
    return next((a for a in moves if a["type"] in ("end_turn", "renew")), moves[0])


def play_some(game, clients, moves: int) -> None:
    for _ in range(moves):
        seat, me, _ = acting(game, clients)
        assert post_action(me, game, plain_move(game, seat), game.version, **HX).status_code == 200


def test_a_move_is_answered_with_the_fragments_by_the_pages_ids_and_nothing_else(owner, member, clients):
    game = started_toppo(owner, member)
    play_some(game, clients, 2)
    seat, me, _ = acting(game, clients)
    page = me.get(f"/tables/{game.pk}/").content.decode()
    answer = post_action(me, game, plain_move(game, seat), game.version, HTTP_X_TOPOS_LOG=mark(page), **HX)
    html = answer.content.decode()
    game.refresh_from_db()
    assert answer.status_code == 200 and answer["HX-Reswap"] == "none"  # the region itself stays
    assert top_level_ids(html) == FRAGMENTS
    assert 'id="table-live"' not in html and 'class="table-head"' not in html  # no header, no whole region
    assert f'data-version="{game.version}"' in html.split('id="table-board"')[1].split("</div>")[0]
    assert f'"X-Topos-Log": "{game.version}:' in html  # the poller brings the page's new log mark
    # Every part the answer swaps has its place in the page, which itself swaps nothing out of band but the log.
    for part in FRAGMENTS + ["log-lines"]:
        assert f'id="{part}"' in page
    assert top_level_ids(page) == []


def test_the_log_part_carries_only_the_lines_after_the_pages_last_one(owner, member, clients):
    game = started_toppo(owner, member)
    play_some(game, clients, 3)
    seat, me, _ = acting(game, clients)
    page = me.get(f"/tables/{game.pk}/").content.decode()
    held = re.findall(r"<li>.*?</li>", page.split('id="log-lines"')[1].split("</ol>")[0])
    holds = mark(page)
    assert int(holds.split(":")[1]) == len(held) >= 3
    answer = post_action(me, game, plain_move(game, seat), game.version, HTTP_X_TOPOS_LOG=holds, **HX).content.decode()
    new = new_log_lines(answer)
    assert new is not None and len(new) == 1 and new[0] not in held  # her move's line, none of those she has
    assert mark(answer) == f"{game.version + 1}:{len(held) + 1}"
    # A page whose log is behind (it says it holds one line fewer) is sent the whole region, with the whole log.
    game.refresh_from_db()
    seat, me, _ = acting(game, clients)
    behind = f"{game.version}:{len(held)}"
    answer = post_action(me, game, plain_move(game, seat), game.version, HTTP_X_TOPOS_LOG=behind, **HX)
    html = answer.content.decode()
    assert "HX-Reswap" not in answer and html.lstrip().startswith('<section id="table-live"')
    assert len(re.findall(r"<li>", html.split('id="log-lines"')[1].split("</ol>")[0])) == len(held) + 2


def test_a_refused_move_answers_the_whole_region_with_its_reason_and_changes_nothing(owner, member, clients):
    game = started_toppo(owner, member)
    play_some(game, clients, 2)
    seat, me, _ = acting(game, clients)
    holds = mark(me.get(f"/tables/{game.pk}/").content.decode())
    version = game.version
    answer = post_action(me, game, {"type": "no-such-move"}, version, HTTP_X_TOPOS_LOG=holds, **HX)
    assert answer.status_code == 400 and "HX-Reswap" not in answer
    html = answer.content.decode()
    assert html.lstrip().startswith('<section id="table-live"') and 'class="notice error"' in html
    game.refresh_from_db()
    assert game.version == version


def test_the_answer_draws_only_the_movers_view_never_anothers_hand(owner, member, clients):
    # ruling G0.3, in Topoum: the planted names of each hand and pile reach only their seat.
    options = {"deck": "preset", "preset": "strategists", "farmer": "lord_of_the_crates"}
    game = services.game_create(user=owner, kind="topoum", players=2, options=options)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    while load_state(game).phase == "setup":  # the setup's placements; they log lines, so the page holds some
        seat, me, _ = acting(game, clients)
        assert post_action(me, game, plain_move(game, seat), game.version, **HX).status_code == 200
        game.refresh_from_db()
    state = load_state(game)
    planted = get_game("topoum").plant_secrets(state)
    Game.objects.filter(pk=game.pk).update(state=state.to_json())
    seat, me, _ = acting(game, clients)
    holds = mark(me.get(f"/tables/{game.pk}/").content.decode())
    answer = post_action(me, game, plain_move(game, seat), game.version, HTTP_X_TOPOS_LOG=holds, **HX)
    html = answer.content.decode()
    assert answer.status_code == 200 and top_level_ids(html) == FRAGMENTS, html[:300]
    for owner_of, markers in planted.items():
        for marker in markers:
            if owner_of != seat:
                assert marker not in html, (owner_of, marker)
    assert any(marker in html for marker in planted[seat])  # her own hand is drawn: the check above can fail
    game.refresh_from_db()
    assert game.seed not in html

"""The end of a finished game: headline with the winner(s), standings with every seat's rank and final score, how
the game scores, a score-over-time chart, and the next game waiting for the viewer.

Games are finished by playing them to the end through the services (tests.games.tables), never by hand.
"""

from __future__ import annotations

import re

import pytest

from engine.core import get_game
from games.models import Action, Game
from games.ranking import is_leave
from games.selectors.score_chart import score_series
from tests.games.tables import decide, open_table, play_turn
from tests.web.conftest import client_for

KINDS = {"topoum": "lines of sight", "toppo": "Fewer is better", "topology": "rings and enclosures"}
OPTIONS = {"toppo": {"hands": 1}}


def play_out(game: Game) -> Game:
    """Every person decides whenever she is to act, until the game is over (bots answer by themselves)."""
    people = {s.index: s.user for s in game.seats.all() if s.user_id}
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        if not game.is_running:
            return game
        decide(game, people[next(seat for seat in game.to_act if seat in people)])
    raise AssertionError("the game did not end")


def finished(kind: str, owner, member) -> Game:
    return play_out(open_table(kind, owner, member, options=OPTIONS.get(kind)))


def replayed_scores(game: Game) -> list[list[float]]:
    """Independent of games.selectors.score_chart: each seat's score whenever the turn marker changes, and at the
    end."""
    state = get_game(game.kind).new_state(game.players, game.options, game.seed)
    rows, marker = [state.scores()], state.turn_marker()
    for a in Action.objects.filter(game=game).order_by("seq"):
        if not is_leave(a.action):
            state.apply(a.seat, a.action)
            if state.turn_marker() != marker:
                marker = state.turn_marker()
                rows.append(state.scores())
    return rows + ([state.scores()] if state.scores() != rows[-1] else [])


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_finished_game_names_the_winner_ranks_every_seat_and_explains_the_score(kind, owner, member):
    game = finished(kind, owner, member)
    assert game.status == Game.Status.FINISHED
    page = client_for(owner).get(f"/tables/{game.pk}/").content.decode()
    seats = {s.index: s for s in game.seats.select_related("user")}
    winners = [seats[i].user.username for i in sorted(seats) if seats[i].rank == 1]
    label = "Winner" if len(winners) == 1 else "Winners"
    assert f"<strong>{label}: {', '.join(winners)}.</strong>" in page
    assert KINDS[kind] in page
    standings = page.split('class="standings"')[1].split("</table>")[0]
    for seat in seats.values():
        # The name links to her page (decision 11, point 5).
        row = re.search(
            rf'<tr class="seat-{seat.index}"><td>(\d+)</td><td><a class="player-link" '
            rf'href="/accounts/players/{seat.user.username}/">{seat.user.username}</a>.*?<td>([^<]+)</td>',
            standings,
        )
        assert row and int(row.group(1)) == seat.rank
        assert float(row.group(2)) == pytest.approx(float(seat.score))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_score_chart_draws_one_line_per_seat_through_the_replayed_scores(kind, owner, member):
    game = finished(kind, owner, member)
    rows = replayed_scores(game)
    assert score_series(game) == rows
    page = client_for(member).get(f"/tables/{game.pk}/").content.decode()
    lines = re.findall(
        r'<polyline class="score-line seat-line-(\d)" data-seat="\d" fill="none" stroke-width="2" '
        r'points="([^"]+)"',
        page,
    )
    assert [int(seat) for seat, _ in lines] == list(range(game.players))
    values = [v for row in rows for v in row]
    low, high = min(0, min(values)), max(values)
    for seat, points in lines:
        ys = [float(p.split(",")[1]) for p in points.split()]
        assert len(ys) == len(rows)
        # the SVG's y grows downwards: a higher score is drawn higher, the extremes at the chart's edges
        expected = [240 - 30 - 180 * (row[int(seat)] - low) / ((high - low) or 1) for row in rows]
        assert ys == pytest.approx(expected, abs=0.06)
    assert "<script" not in page.split('class="score-chart"')[1].split("</figure>")[0]


def test_a_running_game_has_no_chart_and_no_standings(owner, member):
    game = open_table("topology", owner, member)
    page = client_for(owner).get(f"/tables/{game.pk}/").content.decode()
    assert "score-chart" not in page and "standings" not in page


def test_the_finished_page_links_to_the_next_game_waiting_for_the_viewer(owner, member):
    game = finished("toppo", owner, member)
    waiting = open_table("topology", owner, member)  # seat 0, the owner, decides first
    page = client_for(owner).get(f"/tables/{game.pk}/").content.decode()
    assert f'href="/tables/{waiting.pk}/">Next game waiting for you' in page
    page = client_for(member).get(f"/tables/{game.pk}/").content.decode()
    assert "Next game waiting for you" not in page  # not her turn there
    play_turn(waiting, owner)
    assert (
        f'href="/tables/{waiting.pk}/">Next game waiting for you'
        in client_for(member).get(f"/tables/{game.pk}/").content.decode()
    )


@pytest.mark.parametrize("language, words", [("es", "Menos es mejor"), ("zh-hant", "越少越好")])
def test_the_end_of_game_speaks_the_readers_language(language, words, owner, member):
    game = finished("toppo", owner, member)
    page = client_for(owner).get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page

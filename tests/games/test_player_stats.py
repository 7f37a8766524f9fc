"""A player's page: statistics per game from real finished games, her finished games with opponents linked, and
nothing of a private table for someone who may not see it (decision 11, point 5).

Games are played to the end through the services (tests.web.test_web_end_of_game.finished), never marked by hand.
"""

from __future__ import annotations

from statistics import mean

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Game, Seat
from games.selectors import player_stats
from tests.games.factories import started_topology
from tests.games.tables import everyone_played
from tests.games.test_replay import play
from tests.web.conftest import client_for
from tests.web.test_web_end_of_game import finished

pytestmark = pytest.mark.django_db


def expected_stats(user) -> dict[str, dict]:
    """Her statistics worked out one seat at a time in Python, independently of her summaries."""
    out: dict[str, dict] = {}
    for seat in Seat.objects.filter(user=user).select_related("game"):
        if seat.game.status != Game.Status.FINISHED:
            continue
        row = out.setdefault(seat.game.kind, {"ranks": [], "seats": [], "won": 0, "left": 0})
        row["ranks"].append(seat.rank)
        row["seats"].append(seat.game.players)
        row["won"] += seat.rank == 1 and not seat.abandoned
        row["left"] += seat.abandoned
    return {
        kind: {
            "played": len(r["ranks"]),
            "won": r["won"],
            "left": r["left"],
            "average_rank": round(mean(r["ranks"]), 2),
            "average_seats": round(mean(r["seats"]), 2),
        }
        for kind, r in out.items()
    }


def shown_stats(stats: list[dict]) -> dict[str, dict]:
    keys = ("played", "won", "left", "average_rank", "average_seats")
    return {s["game"]: {k: s[k] for k in keys} for s in stats}


def resigned(owner, member) -> Game:
    """A Topology game where bruno resigns after a few moves: ana wins, bruno ranks after her."""
    game = everyone_played(play(started_topology(owner, member), 5))  # ruling S1, turn 3
    services.game_resign(game_id=game.pk, user=member)
    return Game.objects.get(pk=game.pk)


def aborted(owner, member) -> Game:
    """A running Topology game both players agree to abort: no result."""
    game = play(started_topology(owner, member), 3)
    services.game_abort_agree(user=owner, game_id=game.pk)
    services.game_abort_agree(user=member, game_id=game.pk)
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def history(owner, member):
    """Three finished games (two Topology, one of them resigned, one Toppo) and one aborted Topology game."""
    games = [
        finished("topology", owner, member),
        resigned(owner, member),
        finished("toppo", owner, member),
        aborted(owner, member),
    ]
    assert [g.status for g in games] == [Game.Status.FINISHED] * 3 + [Game.Status.ABORTED]
    return games


def test_statistics_per_game_count_finished_games_and_not_the_aborted_one(client, owner, member, history):
    page = client.get(reverse("player", args=["bruno"]))
    assert page.status_code == 200
    shown = shown_stats(page.context["stats"])
    assert shown == expected_stats(member)
    assert shown["topology"]["played"] == 2 and shown["toppo"]["played"] == 1  # the aborted table is not there
    assert shown["topology"]["left"] == 1
    html = page.content.decode()
    assert 'class="stats-topology"' in html and 'class="stats-toppo"' in html
    assert f'id="game-{history[3].pk}"' not in html  # nor in her finished games


def test_a_player_who_resigned_played_the_game_but_did_not_win_it(owner, member, history):
    game = history[1]
    ana, bruno = (game.seats.get(user=u) for u in (owner, member))
    assert (ana.rank, bruno.rank, bruno.abandoned) == (1, 2, True)
    stats = shown_stats(player_stats.game_stats(member))["topology"]
    first_game_won = history[0].seats.get(user=member).rank == 1
    assert stats["won"] == int(first_game_won)
    assert shown_stats(player_stats.game_stats(owner))["topology"]["won"] == 1 + int(
        history[0].seats.get(user=owner).rank == 1
    )


def test_the_statistics_are_one_query_however_many_games(owner, member, history):
    with CaptureQueriesContext(connection) as one_kind:
        player_stats.game_stats(member)
    finished("topoum", owner, member)
    with CaptureQueriesContext(connection) as three_kinds:
        stats = player_stats.game_stats(member)
    assert [s["game"] for s in stats] == ["topology", "topoum", "toppo"]
    assert len(one_kind) == len(three_kinds) == 1
    assert "games_playergamestats" in three_kinds[0]["sql"]  # her summaries (decision 16), not her seats


def test_her_finished_games_name_her_result_and_link_her_opponents(client, owner, member, history):
    page = client.get(reverse("player", args=["ana"]))
    listed = page.context["finished_games"]
    assert [g["id"] for g in listed] == [g.pk for g in sorted(history[:3], key=lambda g: g.finished_at, reverse=True)]
    html = page.content.decode()
    for game in history[:3]:
        mine = game.seats.get(user=owner)
        row = next(g for g in listed if g["id"] == game.pk)
        assert (row["rank"], row["won"]) == (mine.rank, mine.rank == 1 and not mine.abandoned)
        assert [o["player"] for o in row["opponents"]] == ["bruno"]
        block = html.split(f'id="game-{game.pk}"')[1].split("</li>")[0]
        assert '<a class="player-link" href="/accounts/players/bruno/">bruno</a>' in block
        assert reverse("table_replay", args=[game.pk]) in block and reverse("table", args=[game.pk]) in block


def test_the_list_can_show_one_game_and_pages_through_the_rest(client, owner, member, history, monkeypatch):
    monkeypatch.setattr("games.views.players.RECENT_PER_PAGE", 2)
    first = client.get(reverse("player", args=["ana"]))
    second = client.get(reverse("player", args=["ana"]), {"page": 2})
    newest = [g.pk for g in sorted(history[:3], key=lambda g: g.finished_at, reverse=True)]
    assert [g["id"] for g in first.context["finished_games"]] == newest[:2]
    assert [g["id"] for g in second.context["finished_games"]] == newest[2:]
    assert "?page=2#recent-games" in first.content.decode()
    only = client.get(reverse("player", args=["ana"]), {"game": "toppo"})
    assert [g["id"] for g in only.context["finished_games"]] == [history[2].pk]
    # Statistics stay whole whatever the list shows.
    assert {s["game"] for s in only.context["stats"]} == {"topology", "toppo"}
    unknown = client.get(reverse("player", args=["ana"]), {"game": "chess"})
    assert [g["id"] for g in unknown.context["finished_games"]] == newest[:2]  # an unknown game filters nothing


def test_a_private_finished_table_is_counted_but_listed_only_to_those_who_may_see_it(owner, member, outsider):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    services.game_join(user=member, game_id=game.pk, invite_code=game.invite_code)
    secret = play(services.game_start(user=owner, game_id=game.pk))
    assert secret.status == Game.Status.FINISHED
    table = reverse("table", args=[secret.pk])

    seen_by_outsider = client_for(outsider).get(reverse("player", args=["ana"]))
    assert secret.pk not in [g["id"] for g in seen_by_outsider.context["finished_games"]]
    assert table not in seen_by_outsider.content.decode()
    # The count names no table: it is the same for everyone.
    assert shown_stats(seen_by_outsider.context["stats"])["topology"]["played"] == 1

    for viewer in (owner, member):
        page = client_for(viewer).get(reverse("player", args=["ana"]))
        assert [g["id"] for g in page.context["finished_games"]] == [secret.pk]
        assert table in page.content.decode()


def test_a_table_page_links_every_person_and_no_bot(owner, member):
    game = services.game_create(user=owner, kind="topology", players=3, bots=["random"])
    waiting = client_for(owner).get(reverse("table", args=[game.pk])).content.decode()
    assert 'href="/accounts/players/ana/"' in waiting
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    html = client_for(member).get(reverse("table", args=[game.pk])).content.decode()
    board = html.split('class="scores"')[1].split("</section>")[0]
    assert '<a class="player-link" href="/accounts/players/ana/">ana</a>' in board
    assert '<a class="player-link" href="/accounts/players/bruno/">bruno</a>' in board
    assert board.count('class="player-link"') == 2  # the bot's seat is named, not linked
    home = client_for(member).get(reverse("home")).content.decode()
    assert 'href="/accounts/players/ana/"' in home and 'href="/accounts/players/bruno/"' in home


@pytest.mark.parametrize(
    "header, words",
    [
        ("es", ["Estadísticas", "Puesto medio", "de media", "Contra:", "Repetición"]),
        ("zh-Hant-TW,zh;q=0.8", ["統計", "平均名次", "人中第", "對手：", "重播"]),
    ],
)
def test_the_page_speaks_the_readers_language(client, owner, member, header, words):
    finished("topology", owner, member)
    html = client.get(reverse("player", args=["ana"]), HTTP_ACCEPT_LANGUAGE=header).content.decode()
    for word in words:
        assert word in html, word
    assert "Statistics" not in html and "Against:" not in html

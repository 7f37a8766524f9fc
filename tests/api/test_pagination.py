"""Lists come in cursor pages (games.api.pagination) with validated filters; the action log pages too."""

from urllib.parse import parse_qs, urlsplit

import pytest

from games import services
from games.models import Game, Pace, Seat
from tests.games.factories import started_topology
from tests.web.helpers import legal

pytestmark = pytest.mark.django_db


def read_all(client, url):
    """Every entry, following the `next` links; the pages' sizes."""
    entries, sizes = [], []
    while url:
        page = client.get(url)
        assert page.status_code == 200, page.content
        entries += page.data["results"]
        sizes.append(len(page.data["results"]))
        url = page.data["next"]
    return entries, sizes


def open_tables(owner, n, **kw):
    return [
        services.game_create(
            user=owner,
            kind=kw.get("kind", "topology"),
            players=kw.get("players", 2),
            pace=kw.get("pace", Pace.CORRESPONDENCE),
        ).pk
        for _ in range(n)
    ]


def test_open_tables_come_in_pages_newest_first_and_every_table_once(owner, member_api):
    ids = open_tables(owner, 7)
    entries, sizes = read_all(member_api, "/api/tables/?page_size=3")
    assert [t["id"] for t in entries] == sorted(ids, reverse=True)
    assert sizes == [3, 3, 1]


def test_a_table_opened_between_two_pages_neither_repeats_nor_shifts_the_next_page(owner, member_api):
    ids = open_tables(owner, 4)
    first = member_api.get("/api/tables/?page_size=2").data
    open_tables(owner, 1)
    rest, _ = read_all(member_api, first["next"])
    assert [t["id"] for t in first["results"] + rest] == sorted(ids, reverse=True)


def test_the_filters_choose_game_players_pace_and_status(owner, member, member_api):
    toppo = open_tables(owner, 1, kind="toppo", players=3)
    live = open_tables(owner, 1, kind="toppo", players=4, pace=Pace.LIVE)
    running = started_topology(owner, member).pk
    plain = open_tables(owner, 1)

    def ids(query):
        return [t["id"] for t in read_all(member_api, f"/api/tables/?{query}")[0]]

    assert ids("") == sorted(toppo + live + plain, reverse=True)  # open ones unless status says otherwise
    assert ids("game=toppo") == sorted(toppo + live, reverse=True)
    assert ids("players=3") == toppo
    assert ids("pace=live") == live
    assert ids("status=running") == [running]
    assert ids("game=topology&pace=correspondence") == plain


def test_private_tables_are_never_listed(owner, member_api):
    hidden = services.game_create(user=owner, kind="topology", players=2, private=True).pk
    for status in Game.Status.values:
        assert hidden not in [t["id"] for t in read_all(member_api, f"/api/tables/?status={status}")[0]]


@pytest.mark.parametrize(
    "query,field",
    [
        ("game=chess", "game"),
        ("players=two", "players"),
        ("players=0", "players"),
        ("pace=slow", "pace"),
        ("status=paused", "status"),
        ("status=", "status"),
    ],
)
def test_a_bad_filter_is_400_naming_it(owner_api, query, field):
    reply = owner_api.get(f"/api/tables/?{query}")
    assert reply.status_code == 400
    assert reply.data["error"] == "invalid" and field in reply.data["fields"]
    assert owner_api.get(f"/api/tables/mine/?{query}").status_code == 400


def test_a_cursor_not_given_by_the_api_is_400(owner_api):
    reply = owner_api.get("/api/tables/?cursor=not-a-cursor")
    assert reply.status_code == 400 and reply.data["error"] == "invalid_cursor"


def test_my_tables_page_and_filter(owner, member, member_api):
    mine = [started_topology(owner, member).pk for _ in range(3)]
    open_tables(owner, 2)  # not hers
    services.game_resign(user=member, game_id=mine[0])
    entries, sizes = read_all(member_api, "/api/tables/mine/?page_size=2")
    # The most urgent first (tests/api/test_my_tables_urgency.py): hers, then the others, newest first, then over.
    seats = {pk: Seat.objects.get(game_id=pk, user=member) for pk in mine[1:]}
    urgent = sorted(mine[1:], key=lambda pk: (seats[pk].deadline is None, seats[pk].deadline or 0, -pk))
    assert [t["id"] for t in entries] == [*urgent, mine[0]] and sizes == [2, 1]
    assert all("my_turn" in t for t in entries)
    finished = [t["id"] for t in read_all(member_api, "/api/tables/mine/?finished=1")[0]]
    assert finished == [mine[0]]
    running = [t["id"] for t in read_all(member_api, "/api/tables/mine/?status=running")[0]]
    assert running == urgent  # a filter keeps the order


def play(game, moves: int) -> Game:
    """Both seats make their first legal action, `moves` times."""
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.to_act[0]
        services.action_submit(
            game_id=game.pk,
            user=game.seats.get(index=seat).user,
            action=legal(game, seat)[0],
            expected_version=game.version,
        )
    game.refresh_from_db()
    return game


def test_the_action_log_pages_in_its_order(owner, member, owner_api):
    game = play(started_topology(owner, member), 12)
    whole = owner_api.get(f"/api/tables/{game.pk}/actions/?page_size=1000").data
    assert whole["version"] == game.version and whole["next"] is None
    seqs = [row["seq"] for row in whole["results"]]
    assert len(seqs) > 5 and seqs == sorted(seqs)
    entries, sizes = read_all(owner_api, f"/api/tables/{game.pk}/actions/?page_size=4")
    assert entries == whole["results"]
    assert set(sizes[:-1]) == {4}
    after = owner_api.get(f"/api/tables/{game.pk}/actions/?after={seqs[2]}&page_size=2").data
    assert [row["seq"] for row in after["results"]] == seqs[3:5]
    assert parse_qs(urlsplit(after["next"]).query)["after"] == [str(seqs[2])]


@pytest.mark.parametrize("query", ["after=x", "after=-1", "cursor=zzz"])
def test_a_bad_log_parameter_is_400(owner, member, owner_api, query):
    game = started_topology(owner, member)
    assert owner_api.get(f"/api/tables/{game.pk}/actions/?{query}").status_code == 400

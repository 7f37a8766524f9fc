"""Decision 29, point 5: pace profiles from the action log (games.selectors.pace): median reply per pace, share of
deadlines missed and of games finished; on the player's page and in the API; the lobby's "opponents who usually reply
within ..." filter; and, on her own page, the tables where others wait for her."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from accounts.services import user_create
from games import services
from games.models import Action, Game, PaceProfile
from games.selectors.pace import pace_of, pace_profile_refresh, waiting_on
from games.services.moves import deadline_expire, game_resign
from tests.conftest import api_client_for
from tests.games.tables import everyone_played, play_turn, topology_table

pytestmark = pytest.mark.django_db

HOUR = 3600


def _spaced(game: Game, seconds: int) -> None:
    """Every row of the log `seconds` after the one before, the first `seconds` after the deal."""
    for row in Action.objects.filter(game=game).order_by("seq"):
        Action.objects.filter(pk=row.pk).update(created_at=game.started_at + timedelta(seconds=seconds * row.seq))


def test_replies_missed_deadlines_and_games_finished_are_read_from_the_log(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)  # her turn: three placements and end_turn (ruling L5)
    game = play_turn(game, member)
    game = play_turn(game, owner)
    _spaced(game, HOUR)
    # member lets his next deadline pass: the site's bot plays it (ruling S1)
    game = Game.objects.get(pk=game.pk)
    deadline_expire(game_id=game.pk, seat=1, version=game.version, now=game.started_at + timedelta(days=30))
    owner_pace = pace_of(owner, refresh=True)
    # Two turns of hers, each replied one hour after the row that passed the turn to her (or the deal).
    assert owner_pace["reply_median_seconds"] == {"correspondence": HOUR, "live": None}
    assert owner_pace["replies"]["correspondence"] == 2
    assert owner_pace["missed_deadlines"] == 0 and owner_pace["missed_share"] == 0.0
    member_pace = pace_of(member, refresh=True)
    assert member_pace["replies"]["correspondence"] == 1 and member_pace["missed_deadlines"] == 1
    assert member_pace["missed_share"] == 0.5

    game_resign(game_id=game.pk, user=member)  # after everyone played: he loses, and she is left alone: over
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert pace_of(member, refresh=True)["games_left"] == 1
    owner_pace = pace_of(owner, refresh=True)
    assert owner_pace["games_finished"] == 1 and owner_pace["finished_share"] == 1.0


def test_the_profile_is_kept_and_read_as_kept_until_stale(owner):
    first = pace_of(owner)
    assert PaceProfile.objects.filter(user=owner).count() == 1
    assert pace_of(owner)["computed_at"] == first["computed_at"]  # not computed again within the hour


def test_the_player_page_and_api_show_it_and_only_she_sees_who_waits_for_her(owner, member):
    game = everyone_played(topology_table(owner, member))
    assert game.to_act == [0]  # her turn again, member waits
    waits = waiting_on(owner)
    assert [w["table"] for w in waits] == [game.pk] and waits[0]["waiting_seconds"] >= 0
    assert waiting_on(member) == []

    mine = api_client_for(owner).get("/api/players/ana/").json()
    assert mine["pace"]["replies"]["correspondence"] >= 1
    assert [w["table"] for w in mine["waiting_on_me"]] == [game.pk]
    theirs = api_client_for(member).get("/api/players/ana/").json()
    assert "pace" in theirs and "waiting_on_me" not in theirs

    page = Client()
    page.force_login(owner)
    answer = page.get("/accounts/players/ana/")
    text = answer.content.decode()
    assert answer.status_code == 200, text[-3000:]
    assert 'id="pace"' in text, text[text.find("<main") :][:3000]
    assert "Where others wait for you" in text and f"/tables/{game.pk}/" in text
    page.force_login(member)
    answer = page.get("/accounts/players/ana/")
    text = answer.content.decode()
    assert answer.status_code == 200, text[-3000:]
    assert 'id="pace"' in text, text[text.find("<main") :][:3000]
    assert "Where others wait for you" not in text


def test_the_lobby_filters_tables_by_how_fast_their_players_usually_reply(owner, member, outsider):
    fast, slow = owner, member
    newcomer = user_create(username="dora", email="dora@example.com", password="a-long-test-password")
    for person, seconds in ((fast, HOUR), (slow, 3 * 86400)):
        pace_profile_refresh(person)
        PaceProfile.objects.filter(user=person).update(reply_median_correspondence=seconds)
    tables = {
        person.username: services.game_create(user=person, kind="topology", players=2, options={})
        for person in (fast, slow, newcomer)
    }
    api = api_client_for(outsider)
    listed = api.get("/api/tables/", {"status": "open", "replies_within": "day"}).json()["results"]
    assert [t["id"] for t in listed] == [tables["ana"].pk]
    listed = api.get("/api/tables/", {"status": "open", "replies_within": "3days"}).json()["results"]
    assert sorted(t["id"] for t in listed) == sorted([tables["ana"].pk, tables["bruno"].pk])
    assert api.get("/api/tables/", {"replies_within": "week"}).status_code == 400
    assert api.get("/api/tables/watch/", {"replies_within": "hour"}).status_code == 200

    page = Client()
    text = page.get("/", {"replies_within": "day"}).content.decode()
    assert f"/tables/{tables['ana'].pk}/" in text and f"/tables/{tables['bruno'].pk}/" not in text
    assert f"/tables/{tables['dora'].pk}/" not in text

"""Ruling S1, turn 3: until every seat has completed a turn of its own, a seat that resigns or abandons aborts the
table instead: no result, no rating change, everyone told; the page, the API and the export say so.

`games.selectors.first_turns_pending` decides who has played, per game (its notion of a turn, engine.ranking):
a Topology or Topoum turn is complete when she confirmed it (or it passed on), a correspondence Toppo round when
she made her claim, live Toppo at any decision of her own; a turn the site's bot played for a missed deadline is
not hers.  Real games, played through the services.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import services
from games.models import Action, Game, PlayerGameStats, Seat
from games.selectors import first_turns_pending
from games.services import leaving
from games.services.aborting import game_abort_by_staff, games_unplayed_abort, leaving_aborts
from notifications.events import game_effects_dispatch
from notifications.models import Notification, NotificationEvent
from ratings.models import RatedGame, Rating, RatingChange
from tests.conftest import api_client_for
from tests.games.tables import (
    decide,
    everyone_played,
    play_turn,
    topology_table,
    topoum_table,
    toppo_table,
    words_of,
)
from tests.ratings.helpers import people, played, table_of
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db


def miss(game: Game, seat: int) -> Game:
    """The seat's deadline passes and the sweep's service plays the turn for her (ruling S1)."""
    Seat.objects.filter(game=game, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    services.deadline_expire(game_id=game.pk, seat=seat, version=Game.objects.get(pk=game.pk).version)
    return Game.objects.get(pk=game.pk)


def aborted_notes(user) -> list[str]:
    return words_of(Notification.objects.filter(recipient=user, kind=NotificationEvent.ABORTED).order_by("pk"))


# --- who has played: one selector, per game -------------------------------------------------------------------------


def test_topology_a_turn_counts_once_confirmed(owner, member):
    game = topology_table(owner, member)
    assert first_turns_pending(game) == {0, 1}
    game = decide(game, owner)  # one tile placed, the turn not confirmed: not played yet (ruling S3)
    assert game.to_act == [0] and first_turns_pending(game) == {0, 1}
    game = play_turn(game, owner)  # confirmed
    assert first_turns_pending(game) == {1}
    game = play_turn(game, member)
    assert first_turns_pending(game) == set() and not leaving_aborts(game)


def test_topoum_a_turn_counts_when_it_passes_on(owner, member):
    game = topoum_table(owner, member)
    assert first_turns_pending(game) == {0, 1}
    game = play_turn(game, owner)
    assert first_turns_pending(game) == {1}
    game = play_turn(game, member)
    assert first_turns_pending(game) == set()


def test_toppo_by_correspondence_her_claim_is_her_turn(owner, member):
    game = toppo_table(owner, member)
    assert sorted(game.to_act) == [0, 1] and first_turns_pending(game) == {0, 1}  # a round: both decide at once
    game = play_turn(game, member)
    assert first_turns_pending(game) == {0}
    game = play_turn(game, owner)
    assert first_turns_pending(game) == set()


def test_live_toppo_any_decision_of_her_own_is_a_turn(owner, member):
    game = toppo_table(owner, member, pace="live", turn_seconds=60)
    game = decide(game, owner)  # the start player reveals first (ruling P3)
    assert first_turns_pending(game) == {1}


def test_a_turn_the_bot_played_for_a_missed_deadline_is_not_hers(owner, member):
    """S1: on a missed deadline "the site's bot plays that turn for her": she has not played it."""
    game = miss(topology_table(owner, member), 0)
    assert Action.objects.filter(game=game, seat=0, source="timeout").exists()
    assert first_turns_pending(game) == {0, 1}
    game = play_turn(game, member)
    assert first_turns_pending(game) == {0}
    # nor is a turn she began and the bot finished: she never confirmed it
    game = decide(game, owner)
    game = miss(game, 0)
    assert first_turns_pending(game) == {0}
    game = play_turn(game, member)
    game = play_turn(game, owner)
    assert first_turns_pending(game) == set()


def test_the_log_is_read_a_page_at_a_time_and_whole(owner, member):
    from games.selectors.tables import _log_in_pages

    game = play_turn(play_turn(topology_table(owner, member), owner), member)
    rows = Action.objects.filter(game=game).order_by("seq")
    whole = list(rows.values_list("seat", "action", "source"))
    assert len(whole) > 4 and list(_log_in_pages(rows, size=3)) == list(_log_in_pages(rows)) == whole


def test_a_bot_seats_own_turn_counts(owner):
    game = everyone_played(topology_table(owner, bots=["greedy"]))  # the bot plays its turn, with source "bot"
    assert Action.objects.filter(game=game, seat=1, source="bot").exists()
    assert first_turns_pending(game) == set()


# --- resigning before everyone has played ---------------------------------------------------------------------------


def test_resigning_before_anyone_moved_aborts_changes_no_rating_and_tells_both(owner, member):
    """The measured case: she resigned before anyone moved and her opponent gained 248 points."""
    played([owner, member])
    ratings = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games"))
    stats = sorted(PlayerGameStats.objects.values_list("user_id", "played", "won", "left"))
    game = table_of([owner, member])
    game = services.game_resign(game_id=game.pk, user=member)
    game.refresh_from_db()
    assert (game.status, game.abort_reason, game.abort_seat) == ("aborted", "resigned", 1)
    assert game.to_act == [] and game.finished_at is not None
    assert list(game.seats.values_list("rank", "score", "result", "deadline")) == [(None,) * 4] * 2  # clocks stop
    assert Action.objects.filter(game=game, action={"type": "resign"}, seat=1).exists()  # the log says who left
    assert not RatedGame.objects.filter(game=game).exists() and not RatingChange.objects.filter(game=game).exists()
    assert sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games")) == ratings
    assert sorted(PlayerGameStats.objects.values_list("user_id", "played", "won", "left")) == stats

    assert game_effects_dispatch(game_id=game.pk) is True
    assert game_effects_dispatch(game_id=game.pk) is False  # told once
    for user in (owner, member):
        (note,) = aborted_notes(user)
        assert note == (
            f"Topology #{game.pk}: bruno resigned before every player had played a turn of their own, so the game "
            "is aborted: no result, no rating change."
        )
    assert not Notification.objects.filter(game=game, kind="your_turn", read_at__isnull=True).exists()
    assert not Notification.objects.filter(game=game, kind="finished").exists()


def test_resigning_once_every_seat_has_played_loses_and_is_rated_as_before(owner, member):
    game = everyone_played(table_of([owner, member]))
    game = services.game_resign(game_id=game.pk, user=member)
    assert game.status == Game.Status.FINISHED and game.abort_reason == ""
    assert dict(game.seats.values_list("index", "rank")) == {0: 1, 1: 2}
    assert RatingChange.objects.get(game=game, user=member).delta < 0


def test_three_seats_the_third_had_not_played_yet(owner, member, outsider):
    game = play_turn(play_turn(topology_table(owner, member, outsider), owner), member)
    assert first_turns_pending(game) == {2}
    game = services.game_resign(game_id=game.pk, user=owner)  # ana and bruno played; chen never did
    assert (game.status, game.abort_seat) == (Game.Status.ABORTED, 0)
    game_effects_dispatch(game_id=game.pk)
    for user in (owner, member, outsider):
        assert len(aborted_notes(user)) == 1


def test_four_seats_and_a_seat_that_had_played_resigns(owner, member, outsider):
    (dora,) = people("dora")
    game = topology_table(owner, member, outsider, dora)
    for user in (owner, member, outsider):
        game = play_turn(game, user)
    assert first_turns_pending(game) == {3}
    game = services.game_resign(game_id=game.pk, user=member)
    assert game.status == Game.Status.ABORTED and game.abort_reason == "resigned"
    game_effects_dispatch(game_id=game.pk)
    assert [len(aborted_notes(u)) for u in (owner, member, outsider, dora)] == [1, 1, 1, 1]


# --- abandoning: three missed deadlines before her first turn of her own -------------------------------------------


def test_three_missed_deadlines_before_her_first_turn_abort_the_game(owner, member):
    game = topology_table(owner, member)
    for _ in range(2):
        game = play_turn(miss(game, 0), member)
    assert game.is_running and first_turns_pending(game) == {0}
    game = miss(game, 0)  # the third in a row: she leaves, before ever playing
    assert (game.status, game.abort_reason, game.abort_seat) == ("aborted", "abandoned", 0)
    last = Action.objects.filter(game=game).order_by("-seq").first()
    assert (last.seat, last.source, last.action) == (0, "timeout", {"type": "abandon"})  # the bot played no more
    assert not game.seats.exclude(deadline=None).exists()
    game_effects_dispatch(game_id=game.pk)
    for user in (owner, member):
        (note,) = aborted_notes(user)
        assert "ana missed three deadlines in a row before every player had played a turn of their own" in note


def test_three_missed_deadlines_after_her_first_turn_lose_as_before(owner, member):
    game = play_turn(play_turn(topology_table(owner, member), owner), member)
    for _ in range(3):
        game = miss(game, 0)
        if game.is_running:
            game = play_turn(game, member)
    assert game.seats.get(index=0).abandoned and game.status != Game.Status.ABORTED


# --- every abort of a game that ran is told; what the page, the API and the export say -----------------------------


def test_an_abort_by_agreement_or_by_staff_is_told_to_everyone(owner, member, outsider, admin_user):
    agreed = topology_table(owner, member)
    services.game_abort_agree(user=owner, game_id=agreed.pk)
    services.game_abort_agree(user=member, game_id=agreed.pk)
    game_effects_dispatch(game_id=agreed.pk)
    assert (
        aborted_notes(owner)
        == aborted_notes(member)
        == [f"Topology #{agreed.pk}: Every player still in the game agreed to abort it: no result, no rating change."]
    )
    staff = play_turn(topology_table(owner, member, outsider), owner)
    game_abort_by_staff(user=admin_user, game_id=staff.pk)
    game_effects_dispatch(game_id=staff.pk)
    assert Game.objects.get(pk=staff.pk).abort_reason == "staff"
    assert "The site's staff aborted the game" in aborted_notes(outsider)[-1]
    # a table closed before it began told nobody: it never ran
    closed = services.game_create(user=owner, kind="topology", players=2)
    services.game_join(user=member, game_id=closed.pk)
    services.game_abort(user=owner, game_id=closed.pk)
    game_effects_dispatch(game_id=closed.pk)
    assert not Notification.objects.filter(game=closed).exists()
    assert Game.objects.get(pk=closed.pk).abort_reason == "closed"


def test_the_api_the_page_and_the_export_say_aborted_and_why(owner, member, outsider):
    game = topology_table(owner, member)
    services.game_resign(game_id=game.pk, user=owner)
    detail = api_client_for(outsider).get(f"/api/tables/{game.pk}/").json()
    assert detail["status"] == "aborted" and detail["winners"] is None
    assert detail["aborted"] == {
        "reason": "resigned",
        "seat": 0,
        "player": "ana",
        "words": "ana resigned before every player had played a turn of their own, so the game is aborted: "
        "no result, no rating change.",
    }
    assert all("rank" not in s for s in detail["seats"])
    listed = api_client_for(member).get("/api/tables/mine/?finished=1").json()["results"]
    assert [(t["id"], t["aborted"]["reason"]) for t in listed] == [(game.pk, "resigned")]
    es = api_client_for(member).get(f"/api/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="es").json()
    assert es["aborted"]["words"].startswith("ana se rindió antes de que todos")

    page = client_for(member).get(f"/tables/{game.pk}/").content.decode()
    assert "ana resigned before every player had played a turn of their own, so the game is aborted" in page
    assert "Winner" not in page

    export = api_client_for(member).get(f"/api/tables/{game.pk}/export/")
    assert export.status_code == 409
    assert "aborted" in export.json()["detail"] and "ana resigned before every player" in export.json()["detail"]
    log = client_for(member).get(f"/tables/{game.pk}/log.json").json()
    assert log["status"] == "aborted" and log["aborted"]["reason"] == "resigned" and "seed" not in log


# --- games that ended before the ruling ----------------------------------------------------------------------------


def legacy_resignation(users) -> Game:
    """A rated game its second player resigned before anyone moved, ended as the site did before ruling S1, turn 3:
    finished, ranked and rated (leaving.game_end_early, the old path)."""
    game = table_of(users)
    services.game_resign(game_id=game.pk, user=users[1])  # today: aborted; put back as it was then
    Game.objects.filter(pk=game.pk).update(status=Game.Status.RUNNING, abort_reason="", abort_seat=None)
    game = Game.objects.get(pk=game.pk)
    leaving.game_end_early(game, timezone.now())
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and RatedGame.objects.filter(game=game).exists()
    return game


def test_the_command_aborts_the_games_that_ended_before_everyone_played_and_rebuilds_ratings(owner, member, outsider):
    real = everyone_played(table_of([owner, outsider]))
    services.game_resign(game_id=real.pk, user=outsider)  # a real loss: stays
    first = played([owner, member])
    honest = sorted(Rating.objects.values_list("user_id", "key", "mu", "sigma", "games"))
    honest_stats = sorted(PlayerGameStats.objects.values_list("user_id", "kind", "played", "won", "left"))
    wrong = legacy_resignation([owner, member])
    assert Rating.objects.get(user=owner).games == 3  # the 248 points the issue measured

    out = StringIO()
    call_command("abort_unplayed_games", stdout=out)
    assert f"1 games would be aborted: {wrong.pk}" in out.getvalue()
    assert Game.objects.get(pk=wrong.pk).status == Game.Status.FINISHED  # a dry run writes nothing

    assert games_unplayed_abort(apply=True).games == [wrong.pk]
    wrong.refresh_from_db()
    assert (wrong.status, wrong.abort_reason, wrong.abort_seat) == ("aborted", "resigned", 1)
    assert list(wrong.seats.values_list("rank", "score", "result")) == [(None, None, None)] * 2
    assert not RatedGame.objects.filter(game=wrong).exists()
    assert sorted(Rating.objects.values_list("user_id", "key", "mu", "sigma", "games")) == pytest.approx(honest)
    assert sorted(PlayerGameStats.objects.values_list("user_id", "kind", "played", "won", "left")) == honest_stats
    assert Game.objects.get(pk=real.pk).status == Game.Status.FINISHED and RatingChange.objects.filter(game=first)
    # and recompute_ratings gives the same numbers again
    call_command("recompute_ratings", stdout=StringIO())
    assert sorted(Rating.objects.values_list("user_id", "key", "mu", "sigma", "games")) == pytest.approx(honest)
    assert games_unplayed_abort(apply=True).games == []

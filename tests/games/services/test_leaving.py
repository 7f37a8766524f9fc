"""Leaving a game (ruling S1): resigning and abandoning are log entries, the seats still playing rank first, the one
that left last ranks highest among those who left, and the published log re-runs to the published ranks.

Real games, played through the services: missed deadlines by `deadline_expire` (what the beat sweep calls), the bots
of seats that left answering in this process (`celery_eager`).
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from games.errors import Conflict
from games.models import Action, Game, Seat
from games.ranking import replayed_ranks, site_ranks, winners
from games.services.leaving import leavers, nobody_to_play_against
from notifications.models import Notification
from tests.games.tables import everyone_played, play_turn, seat_of, topology_table, words_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def bots_answer(celery_eager):
    """The bot that takes over a seat that left plays in this process, at once."""


def miss(game: Game, seat: int) -> Game:
    """The seat's deadline passes and the sweep's service plays the turn for her."""
    Seat.objects.filter(game=game, index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
    version = Game.objects.get(pk=game.pk).version
    assert services.deadline_expire(game_id=game.pk, seat=seat, version=version) is not None
    return Game.objects.get(pk=game.pk)


def play_out(game: Game, *users) -> Game:
    """The people still playing take their turns until the game is over (the bots answer by themselves)."""
    by_seat = {seat_of(game, u): u for u in users}
    while game.is_running:
        (seat,) = game.to_act
        game = play_turn(game, by_seat[seat])
    return game


def ranks(game: Game) -> dict[int, int]:
    return dict(game.seats.values_list("index", "rank"))


def published_ranks(game: Game) -> dict[int, int]:
    """What anyone can check once the game is over: the exported seed and log, re-run (ruling G0.2)."""
    export = Client().get(f"/tables/{game.pk}/log.json").json()
    log = export["log"]
    assert [(r["seq"], r["seat"]) for r in log if not r["replay"]] == list(
        Action.objects.filter(game=game, action__type__in=["resign", "abandon"])
        .order_by("seq")
        .values_list("seq", "seat")
    )
    return replayed_ranks(
        export["game"], export["players"], export["options"], export["seed"], [(r["seat"], r["action"]) for r in log]
    )


def log_entries(game: Game, kind: str) -> list[tuple[int, int, str]]:
    return list(Action.objects.filter(game=game, action__type=kind).values_list("seq", "seat", "source"))


# --- the ranking itself ------------------------------------------------------------------------------------------


def test_staying_seats_keep_the_games_order_without_gaps_and_those_who_left_follow_last_to_leave_first():
    # the game's own ranks: seat 0 first, seats 1 and 2 tied second, seat 3 fourth; seat 0 left, then seat 3 did
    assert site_ranks({0: 1, 1: 2, 2: 2, 3: 4}, [0, 3]) == {1: 1, 2: 1, 3: 3, 0: 4}
    assert site_ranks({0: 1, 1: 2, 2: 2, 3: 4}, []) == {0: 1, 1: 2, 2: 2, 3: 4}  # nobody left: the game's ranks
    assert winners({1: 1, 2: 1, 3: 3, 0: 4}, [0, 3]) == [1, 2]


def test_when_everyone_left_the_last_to_leave_ranks_first_but_nobody_won():
    everyone = site_ranks({0: 1, 1: 2, 2: 3}, [2, 0, 1])
    assert everyone == {1: 1, 0: 2, 2: 3}
    assert winners(everyone, [2, 0, 1]) == []


# --- the case: the leader abandons ------------------------------------------------------------------------


def test_a_leader_who_abandons_after_three_missed_deadlines_ranks_second_and_the_other_player_wins(owner, member):
    game = topology_table(owner, member)  # ana (seat 0) decides first
    game = everyone_played(game)  # ruling S1, turn 3: leaving before that would abort the game
    for _ in range(3):
        game = miss(game, 0)
        game = play_turn(game, member)
    sleeper = game.seats.get(index=0)
    assert sleeper.abandoned and sleeper.missed_deadlines == 3
    # the log says when she left: at the third miss, before the bot played that turn
    ((seq, seat, source),) = log_entries(game, "abandon")
    assert (seat, source) == (0, "timeout")
    after = Action.objects.get(game=game, seq=seq + 1)
    assert (after.seat, after.source) == (0, "timeout") and after.action["type"] != "abandon"

    game = play_out(game, member)
    sleeper, awake = game.seats.get(index=0), game.seats.get(index=1)
    assert sleeper.result["rank"] == 1 and sleeper.score > awake.score  # the bot kept her in the lead ...
    assert ranks(game) == {0: 2, 1: 1}  # ... yet she lost and bruno won (ruling S1)
    assert published_ranks(game) == ranks(game)
    detail = Client().get(f"/api/tables/{game.pk}/").json()
    assert detail["winners"] == [1]
    # the view's final results carry the site's rank, the game's own kept beside it
    assert {r["seat"]: (r["rank"], r["game_rank"]) for r in detail["view"]["results"]} == {0: (2, 1), 1: (1, 2)}
    (note,) = words_of(Notification.objects.filter(recipient=member, kind="finished"))
    assert "you placed 1 of 2" in note
    # the page agrees: the board's scores and the players' list both show the site's ranks
    page = Client().get(f"/tables/{game.pk}/").content.decode()
    assert "Winner: bruno." in page
    scores = page.split('class="score-list"')[1].split("</ol>")[0]
    players = page.split('class="seat-list"')[1].split("</ol>")[0]
    for listing in (scores, players):
        assert re.findall(r"seat-(\d)\">.*?rank (\d)", listing, re.S) == [("0", "2"), ("1", "1")]


def test_the_bot_playing_a_missed_turn_is_told_without_the_leaving_entry(owner, member):
    game = topology_table(owner, member)
    game = everyone_played(game)  # ruling S1, turn 3: leaving before that would abort the game
    for _ in range(3):
        game = miss(game, 0)
        game = play_turn(game, member)
    notes = words_of(Notification.objects.filter(recipient=owner, kind="bot_played").order_by("pk"))
    assert len(notes) == 3 and "third missed deadline in a row" in notes[2]
    assert not any("left the game" in n for n in notes)


# --- resigning ----------------------------------------------------------------------------------------------------


def test_resigning_a_two_player_game_logs_it_ends_the_game_and_the_other_player_wins(owner, member):
    game = everyone_played(topology_table(owner, member))
    version = game.version
    services.game_resign(game_id=game.pk, user=member)
    game = Game.objects.get(pk=game.pk)
    entry = Action.objects.get(game=game, seq=version + 1)
    assert (entry.seat, entry.source, entry.action, entry.user_id) == (1, "player", {"type": "resign"}, member.pk)
    assert game.version == version + 1 and game.status == Game.Status.FINISHED
    assert game.to_act == [] and not game.seats.exclude(deadline=None).exists()  # nobody is left to decide
    assert ranks(game) == {0: 1, 1: 2}
    assert published_ranks(game) == ranks(game)
    # the game ended early: no final scores, and the notification says so without points
    assert list(game.seats.values_list("score", flat=True)) == [None, None]
    (note,) = words_of(Notification.objects.filter(recipient=owner, kind="finished"))
    assert note.startswith(f"Game over at Topology #{game.pk}: you placed 1 of 2.")
    assert "Final ranking: 1. ana, 2. bruno." in note
    assert "points" not in note and "-" not in note.split("Final ranking")[1]


def test_resigning_a_three_player_game_leaves_the_seat_to_the_bot_and_ranks_it_last(owner, member, outsider):
    game = everyone_played(topology_table(owner, member, outsider))
    game = play_turn(game, owner)
    assert game.to_act == [1]
    services.game_resign(game_id=game.pk, user=member)
    game = Game.objects.get(pk=game.pk)
    assert game.is_running and game.to_act == [2]  # the bot played bruno's turn at once
    assert log_entries(game, "resign")[0][1:] == (1, "player")
    resigned_at = log_entries(game, "resign")[0][0]
    assert set(Action.objects.filter(game=game, seat=1, seq__gt=resigned_at).values_list("source", flat=True)) == {
        "bot"
    }
    game = play_out(game, owner, outsider)
    # ana and chen are ranked between themselves by the game's result, bruno comes third
    engine = dict(game.seats.values_list("index", "result__rank"))
    expected = {0: 1 if engine[0] <= engine[2] else 2, 2: 1 if engine[2] <= engine[0] else 2, 1: 3}
    assert ranks(game) == expected
    assert published_ranks(game) == ranks(game)


def test_the_one_who_left_last_ranks_above_the_one_who_left_first(owner, member, outsider):
    game = everyone_played(topology_table(owner, member, outsider))
    for _ in range(3):  # chen sleeps through three turns; ana and bruno play theirs
        game = play_turn(game, owner)
        game = play_turn(game, member)
        game = miss(game, 2)
    assert game.seats.get(index=2).abandoned
    assert game.is_running and game.to_act == [0]
    assert leavers(game) == [2] and not nobody_to_play_against(game)
    services.game_resign(game_id=game.pk, user=member)  # only ana is left playing: the game ends now
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED and game.to_act == []
    assert [seat for _, seat, _ in log_entries(game, "abandon") + log_entries(game, "resign")] == [2, 1]
    assert leavers(game) == [2, 1] and nobody_to_play_against(game)
    assert ranks(game) == {0: 1, 1: 2, 2: 3}
    assert published_ranks(game) == ranks(game)


def test_when_every_player_left_the_ranks_follow_the_order_of_leaving_and_nobody_won(owner, member):
    game = topology_table(owner, member)
    game = everyone_played(game)  # ruling S1, turn 3: leaving before that would abort the game
    for _ in range(3):
        game = miss(game, 0)
        game = play_turn(game, member)
    services.game_resign(game_id=game.pk, user=member)  # the last one playing leaves too
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert ranks(game) == {1: 1, 0: 2}
    assert Client().get(f"/api/tables/{game.pk}/").json()["winners"] == []
    assert published_ranks(game) == ranks(game)


def test_a_seat_that_left_cannot_resign_again(owner, member, outsider):
    game = topology_table(owner, member, outsider)
    game = everyone_played(game)  # ruling S1, turn 3: leaving before that would abort the game
    services.game_resign(game_id=game.pk, user=member)
    version = Game.objects.get(pk=game.pk).version
    with pytest.raises(Conflict):
        services.game_resign(game_id=game.pk, user=member)
    assert Game.objects.get(pk=game.pk).version == version
    assert len(log_entries(game, "resign")) == 1

"""Helpers for tests at tables of the real games: deal with a known seed, play decisions and turns, read what
people were told.

Positions are made by playing, never by hand: each person's decision is picked from the engine's own
`legal_actions` (`pick`), and a table is dealt with a seed chosen so that seat 0 (the person who opened it)
decides first.  So every run of a test sees the same game.
"""

from __future__ import annotations

import hashlib
import json
import types
from contextlib import contextmanager
from datetime import timedelta
from functools import lru_cache

from django.db.models import F
from django.utils import timezone

from accounts.personal import her_words
from engine.core import get_game
from games import services
from games.models import Game, Seat
from games.services import tables as table_services
from notifications import services as notes
from notifications.models import Notification
from notifications.texts import notification_words

# Toppo calls a person makes in these tests, best first: one that ends the hand, takes or matches the display;
# else the first other action listed (live: reveal; by correspondence: renew, always a claim, ruling P4).
# Display votes (P6) are left out: they do not use up a claim, and a match of votes alone never ends.
TOPPO_CALLS = ("toppo", "top", "match")
TOPPO_VOTES = ("propose_replace", "agree_replace")


def seed_for(kind: str, players: int, options: dict | None = None, first: int = 0) -> str:
    """A seed, shaped like the site's own (32 hex digits), with which seat `first` starts the game."""
    return _seed_for(kind, players, json.dumps(options or {}, sort_keys=True), first)


@lru_cache(maxsize=None)
def _seed_for(kind: str, players: int, options_json: str, first: int) -> str:
    engine = get_game(kind)
    options = engine.validate_options(players, json.loads(options_json))
    for n in range(1000):
        seed = hashlib.sha256(f"topos-tests:{kind}:{players}:{n}".encode()).hexdigest()[:32]
        state = engine.new_state(players, options, seed)
        starts = state.start if kind == "toppo" else state.to_act()[0]  # Toppo: all decide, one starts
        if starts == first:
            return seed
    raise AssertionError(f"no seed found where seat {first} starts {kind}")


@contextmanager
def dealt_with(seed: str):
    """`game_start` draws this seed instead of a random one (the only thing it draws at random)."""
    real = table_services.secrets
    table_services.secrets = types.SimpleNamespace(
        token_hex=lambda nbytes=None: seed, compare_digest=real.compare_digest
    )
    try:
        yield
    finally:
        table_services.secrets = real


def open_table(
    kind: str,
    owner,
    *others,
    bots=(),
    start=True,
    options=None,
    pace="correspondence",
    turn_seconds=None,
    seed: str | None = None,
    time_bank_days: int = 0,
) -> Game:
    """A table of `kind`: `owner` in seat 0 (deciding first), then `others`, then `bots`; started unless told not."""
    players = 1 + len(others) + len(bots)
    game = services.game_create(
        user=owner,
        kind=kind,
        players=players,
        options=dict(options or {}),
        pace=pace,
        turn_seconds=turn_seconds,
        bots=list(bots),
        time_bank_days=time_bank_days,
    )
    options = game.options  # as the engine deals them (Toppo's include the table's pace)
    for user in others:
        services.game_join(user=user, game_id=game.pk)
    if start:
        # She presses Start on the table's page: if she moves first she is told (ruling S6) but, looking at the
        # board, not mailed; then she leaves the page, so her later turns are mailed as anyone's.
        her_seat = Seat.objects.filter(game=game, user=owner)
        her_seat.update(seen_at=timezone.now())
        with dealt_with(seed or seed_for(kind, players, options)):
            game = services.game_start(user=owner, game_id=game.pk)
        her_seat.update(seen_at=F("seen_at") - timedelta(minutes=10))
    return Game.objects.get(pk=game.pk)


def topology_table(owner, *others, **kwargs) -> Game:
    """Topology: turns of several decisions (two players: three placements, then end_turn; ruling L5)."""
    return open_table("topology", owner, *others, **kwargs)


def toppo_table(owner, *others, hands: int = 1, **kwargs) -> Game:
    """Toppo, one hand unless told: every seat decides at once (rulings P3, P4)."""
    return open_table("toppo", owner, *others, options={"hands": hands}, **kwargs)


def topoum_table(owner, *others, **kwargs) -> Game:
    return open_table("topoum", owner, *others, **kwargs)


def pick(kind: str, state, seat: int) -> dict:
    """The decision a test's player makes: the first legal one that is not undo (Toppo: see TOPPO_CALLS)."""
    actions = [a for a in state.legal_actions(seat) if a["type"] != "undo"]
    if kind == "toppo":
        actions = [a for a in actions if a["type"] not in TOPPO_VOTES]
        calls = [a for a in actions if a["type"] in TOPPO_CALLS]
        return min(calls, key=lambda a: TOPPO_CALLS.index(a["type"])) if calls else actions[0]
    return actions[0]


def seat_of(game: Game, user) -> int:
    return game.seats.get(user=user).index


def decide(game: Game, user) -> Game:
    """`user` makes one decision at her seat."""
    game = Game.objects.get(pk=game.pk)
    seat = seat_of(game, user)
    state = get_game(game.kind).load(game.state)
    services.action_submit(
        game_id=game.pk, user=user, action=pick(game.kind, state, seat), expected_version=game.version
    )
    return Game.objects.get(pk=game.pk)


def play_turn(game: Game, user) -> Game:
    """`user` decides until her turn is over (a Toppo claim; at a live table, one decision)."""
    game = Game.objects.get(pk=game.pk)
    seat = seat_of(game, user)
    engine = get_game(game.kind)
    marker = engine.load(game.state).turn_marker()
    while True:
        game = decide(game, user)
        if (
            game.pace == "live"
            or not game.is_running
            or seat not in game.to_act
            or engine.load(game.state).turn_marker() != marker
        ):
            return game


def read_by_her(note) -> str:
    """The notification as its recipient reads it, in her language (it stores data, worded when read: decision 13)."""
    with her_words(note.recipient):
        return notification_words(note)


def words_of(notes) -> list[str]:
    return [read_by_her(n) for n in notes]


def texts_of(user) -> list[str]:
    return words_of(Notification.objects.filter(recipient=user).order_by("pk"))


def kinds_of(user) -> list[str]:
    return list(Notification.objects.filter(recipient=user).order_by("pk").values_list("kind", flat=True))


def dispatches_sent(sent: list[tuple[str, tuple, str | None]]) -> int:
    """How many of the tasks read from the broker (the `sent_tasks` fixture) are effects dispatches."""
    return sum(name == "games.tasks.game_effects" for name, _, _ in sent)


def _has_pick(kind: str, state, seat: int) -> bool:
    """Is there a decision `pick` makes for this seat (live Toppo: not while only a display vote is open to her)?"""
    return any(
        a["type"] != "undo" and (kind != "toppo" or a["type"] not in TOPPO_VOTES) for a in state.legal_actions(seat)
    )


def everyone_played(game: Game) -> Game:
    """Every seat completes a turn of its own (ruling S1, turn 3), so that a seat leaving afterwards loses instead of
    aborting the game: the people to act play theirs, those who have not played yet first; a bot to act plays its
    turn here and now (its task's own service), whether or not the test runs the tasks."""
    from games.selectors import first_turns_pending
    from games.services.bots import bot_tasks_claim, bot_turn_play

    game = Game.objects.get(pk=game.pk)
    users = {s.index: s.user for s in game.seats.select_related("user") if s.user_id is not None}
    while game.is_running:
        pending = first_turns_pending(game)
        if not pending:
            return game
        state = get_game(game.kind).load(game.state)
        persons = [i for i in game.to_act if i in users and _has_pick(game.kind, state, i)]
        if persons:
            seat = next((i for i in persons if i in pending), persons[0])
            game = play_turn(game, users[seat])
            continue
        calls = bot_tasks_claim(game_id=game.pk)
        assert calls, "a bot is to play and its task is pending elsewhere"
        for call in calls:
            bot_turn_play(game_id=game.pk, seat=call.seat, token=call.token)
        game = Game.objects.get(pk=game.pk)
    return game


def time_comes(seconds: float) -> int:
    """The beat sweep's part for emails, run as it would `seconds` from now (ruling S6: a turn's grace, quiet
    hours): every email due by then is sent, or marked seen if she no longer needs it.  How many went out."""
    later = timezone.now() + timedelta(seconds=seconds)
    return sum(
        notes.notification_email_send(delivery_id=pk, now=later)
        for pk in notes.deliveries_overdue(now=later, after_seconds=0)
    )

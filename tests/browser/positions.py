"""Positions for the browser tests of decision 13: a person against a bot, fast-forwarded to the middle or the end.

The moves are the engine's random bot's, chosen from each seat's own view and applied through the
site's own move service (games.services.moves.apply_action: logged, clocks restarted), every one in a
single transaction: the worker, which plays the bot seat, sees only the final position.  `stop`
decides where to stop; a position where the person is to decide is the usual choice, so nothing
waits on the worker when the page opens.
"""

from __future__ import annotations

from django.db import transaction

from engine.bots import choose_action
from engine.core import get_game
from games import services
from games.models import Action, Game
from games.services.moves import apply_action
from tests.browser.helpers import add_person


def person_against_a_bot(kind: str, *, username: str = "ana", language: str = "", options: dict | None = None):
    """A started two-player table of `kind`: the person in seat 0, a random bot in seat 1. (game, user)."""
    person = add_person(username)
    if language:
        person.language = language
        person.save(update_fields=["language"])
    game = services.game_create(user=person, kind=kind, players=2, options=options or {}, bots=["random"])
    game = services.game_start(user=person, game_id=game.pk)
    return game, person


def fast_forward(game: Game, stop, *, limit: int = 2000) -> Game:
    """Random legal moves until `stop(view of seat 0, the seats to act)` or the end; bots decide first."""
    engine = get_game(game.kind)
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seats = {s.index: s for s in game.seats.select_related("user")}
        for n in range(limit):
            state = engine.load(game.state)
            if state.is_over():
                break
            to_act = state.to_act()
            if stop(state.view(0), to_act):
                break
            seat = next((s for s in to_act if seats[s].is_bot), to_act[0])
            action = choose_action("random", engine, state.view(seat), seat, seed=f"{game.pk}:forward:{n}")
            row = seats[seat]
            source = Action.Source.BOT if row.is_bot else Action.Source.PLAYER
            apply_action(game, row, action, user=None if row.is_bot else row.user, source=source)
    return Game.objects.get(pk=game.pk)


def near_the_end(game: Game, ready, *, leave: int) -> Game:
    """Fast-forward to the last position where `ready(view of seat 0, the seats to act)` holds that still
    leaves at least `leave` moves of the random game played from the same seeds: a game near its end."""
    with transaction.atomic():  # the worker's bot waits until the game is where the test wants it
        game = Game.objects.select_for_update().get(pk=game.pk)
        return _near_the_end(game, ready, leave)


def _near_the_end(game: Game, ready, leave: int) -> Game:
    engine = get_game(game.kind)
    state = engine.load(game.state)
    seats = {s.index: s.is_bot for s in game.seats.all()}
    candidates = []
    for n in range(2000):
        if state.is_over():
            break
        to_act = state.to_act()
        if ready(state.view(0), to_act):
            candidates.append(n)
        seat = next((s for s in to_act if seats[s]), to_act[0])
        state.apply(seat, choose_action("random", engine, state.view(seat), seat, seed=f"{game.pk}:forward:{n}"))
    total = n
    target = max((c for c in candidates if total - c >= leave), default=None)
    assert target is not None, "no position near the end suits the test"
    moves = iter(range(target + 1))
    return fast_forward(game, lambda view, to_act: next(moves) == target)

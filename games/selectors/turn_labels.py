"""How much a decision waiting for her asks of her (decision 29, point 2): forced, quick or deep.

- **forced**: exactly one legal decision and nothing of the turn that she could still take back (an undo is a
  choice too, ruling S3): the only case the site may play for her (User.auto_play_forced, games.services.auto_play);
- **deep**: more than `DEEP_CHOICES` legal decisions, or choices the greedy bot rates far apart: the best and
  the worst of (at most `CANDIDATES`) candidates differ by `DEEP_SPREAD` of the game's "comfortable lead"
  (`Game.bot_score_scale`, e.g. 8 points at Topology) or more, each candidate's value being the score lead it
  leaves, as the greedy bot's peek reads it;
- **quick**: every other decision.

The count is of her legal decisions (she sees them on her page anyway).  The values are read on a position
sampled from her seat's view (the bots' `determinize`), never on the real hidden state, so the label tells her
nothing her view does not (ruling G0.3).  A label is cached per table, version and seat: it changes only with
a move.
"""

from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import gettext as _

from engine.bots import bot_rng
from engine.bots.base import differential, playable
from engine.bots.greedy import peek
from engine.bots.hints import hints_for
from engine.core import get_game

from ..models import Game
from .positions import load_state

FORCED, QUICK, DEEP = "forced", "quick", "deep"
LABELS = (FORCED, QUICK, DEEP)
DEEP_CHOICES = 12
DEEP_SPREAD = 0.25
CANDIDATES = 8
CACHE_SECONDS = 24 * 3600


def label_words(label: str) -> str:
    return {FORCED: _("forced"), QUICK: _("quick"), DEEP: _("deep")}.get(label, label)


def forced_action(state, seat: int) -> dict | None:
    """Her only decision when it is forced (one legal action, nothing to take back), else None."""
    if seat not in state.to_act() or state.undoable(seat):
        return None
    actions = playable(state, seat)
    return actions[0] if len(actions) == 1 else None


def _spread(game: Game, view: dict, seat: int) -> float:
    """How far apart the greedy bot rates her candidate decisions, in `bot_score_scale`s, on a position sampled
    from her view."""
    engine = get_game(game.kind)
    rng = bot_rng(f"label:{game.pk}:{game.version}:{seat}")
    sample = engine.determinize(view, seat, rng)
    actions = playable(sample, seat)
    if len(actions) < 2:
        return 0.0
    hints = hints_for(engine)
    values = []
    for action in hints.candidates(sample, seat, actions, CANDIDATES, rng):
        try:
            after, _done = peek(hints, sample, seat, action)
        except Exception:  # noqa: BLE001 - an action a sample refuses is no candidate
            continue
        values.append(differential(hints.utilities(after), seat))
    if len(values) < 2:
        return 0.0
    return (max(values) - min(values)) / float(engine.bot_score_scale or 1.0)


def turn_label(game: Game, seat: int, state=None, *, loader=None) -> dict:
    """{"label", "choices", "spread"} for `seat`'s decision now at the running `game` (cached per version);
    `loader`: what gives the position when it is not cached and `state` not given (else the game's own)."""
    key = f"turn-label:{game.pk}:{game.version}:{seat}"
    found = cache.get(key)
    if found is not None:
        return found
    state = state or (loader() if loader is not None else load_state(game))
    actions = playable(state, seat) if seat in state.to_act() else []
    if forced_action(state, seat) is not None:
        answer = {"label": FORCED, "choices": 1, "spread": 0.0}
    elif len(actions) > DEEP_CHOICES:
        answer = {"label": DEEP, "choices": len(actions), "spread": None}
    else:
        spread = _spread(game, state.view(seat), seat) if len(actions) > 1 else 0.0
        answer = {
            "label": DEEP if spread >= DEEP_SPREAD else QUICK,
            "choices": len(actions),
            "spread": round(spread, 3),
        }
    cache.set(key, answer, CACHE_SECONDS)
    return answer

"""Each seat's score after each turn of a finished game, and the inline SVG chart that draws it.

Computed on request, for finished games only: the log is re-run through the engine from the
published seed and options (ruling G0.2), skipping the site's leave entries (games.ranking), and
`state.scores()` is read whenever the turn marker changes and once at the end.  Nothing is cached:
a finished game's log never changes, and re-running it is the same work as loading a replay.
The chart is plain SVG geometry (no script, no inline style: the site's CSP forbids both).
"""

from __future__ import annotations

from engine.core import get_game

from ..models import Action, Game
from ..ranking import is_leave

WIDTH, HEIGHT, PAD = 600, 240, 30


def score_series(game: Game) -> list[list[float]]:
    """One list per turn boundary (the start, each turn's end, the end): every seat's score there."""
    state = get_game(game.kind).new_state(game.players, game.options, game.seed)
    points = [list(state.scores())]
    marker = state.turn_marker()
    for action in Action.objects.filter(game=game).order_by("seq").values_list("seat", "action"):
        seat, data = action
        if is_leave(data):
            continue
        state.apply(seat, data)
        if state.turn_marker() != marker:
            marker = state.turn_marker()
            points.append(list(state.scores()))
    final = list(state.scores())
    if final != points[-1]:
        points.append(final)
    return points


def chart(series: list[list[float]], players: int, *, from_zero: bool = True) -> dict:
    """The SVG geometry: a polyline's points per seat, the axis bounds and the number of turns.

    Scores are drawn from zero; a rating history (from_zero=False) from its own lowest value, or a
    line around 1500 would look flat.
    """
    values = [v for row in series for v in row] or [0]
    low, high = (min(0, min(values)) if from_zero else min(values)), max(values)
    span = (high - low) or 1
    steps = max(len(series) - 1, 1)

    def xy(turn: int, value: float) -> str:
        x = PAD + (WIDTH - 2 * PAD) * turn / steps
        y = HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - low) / span
        return f"{x:.1f},{y:.1f}"

    lines = [
        {"seat": seat, "points": " ".join(xy(t, row[seat]) for t, row in enumerate(series)), "last": series[-1][seat]}
        for seat in range(players)
    ]
    return {
        "lines": lines,
        "width": WIDTH,
        "height": HEIGHT,
        "pad": PAD,
        "low": low,
        "high": high,
        "turns": len(series) - 1,
        "bottom": HEIGHT - PAD,
        "right": WIDTH - PAD,
    }


def finished_chart(game: Game) -> dict | None:
    """The chart of a finished game; None for any other (a running game's scores may hide things)."""
    if game.status != Game.Status.FINISHED or not game.seed:
        return None
    return chart(score_series(game), game.players)

"""The replay page of a finished game: one position at a time, drawn with the game's own board (ruling G0.2)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from boards import registry

from .. import selectors
from ..models import Game
from ..selectors import replay
from .common import seat_names, seat_players, visible_game


def _ply_asked(request, plies: int) -> int:
    """The ?ply= asked for, kept within the game; the last position when absent or unreadable."""
    try:
        ply = int(request.GET.get("ply", plies))
    except ValueError:
        ply = plies
    return max(0, min(plies, ply))


def _step(game: Game, detail: dict, names: list[str], ply: int, plies: int) -> dict:
    """What changes from one step to the next: the board at `ply` and the log row that made it."""
    position = replay.position_at(game, ply, plies)
    # Drawn as the visitor's seat saw it (a spectator's view for others): after the end all is public, but
    # the boards are built to show one seat's perspective.  Before the last ply the game is still going on.
    step = detail  # the last ply is the finished game as the table page shows it
    if ply < plies:
        step = {
            **detail,
            "view": position.state.view(detail["my_seat"]),
            "legal_actions": [],
            "undoable": False,
            "my_turn": False,
        }
        step["status"] = Game.Status.RUNNING
        step["seats"] = [
            {**s, "rank": None, "to_act": s["index"] in position.state.to_act(), "deadline": None}
            for s in detail["seats"]
        ]
    return {
        "ply": ply,
        "plies": plies,
        "current_seq": position.seq,
        "board": registry.present(game.kind, step, names),
        "board_templates": registry.board_template(game.kind),
    }


@require_GET
def table_replay(request, pk: int):
    """The replay page; with ?part=step only what a step replaces (the board, the move's number and log row),
    which static/js/replay.js swaps in without reloading the page (decision 26)."""
    game = visible_game(request, pk)
    if game.status != Game.Status.FINISHED:
        raise Http404(_("Only a finished game can be replayed; this one is not over."))
    user = request.user if request.user.is_authenticated else None
    detail = selectors.table_detail(game, user)
    names = seat_names(detail)
    plies = replay.plies_of(game)
    ply = _ply_asked(request, plies)
    context = {
        "game": game,
        "detail": detail,
        "names": names,
        "seat_players": seat_players(detail),
        **_step(game, detail, names, ply, plies),
    }
    if request.GET.get("part") == "step":
        return render(request, "games/_replay_step.html", context)
    log = selectors.action_log(game, user)
    counted = 0  # the ply each log line leads to (a leave entry leads to the ply before it)
    for row in log:
        if row["replay"]:
            counted += 1
        row["ply"] = counted
    context["log"] = log
    return render(request, "games/replay.html", context)

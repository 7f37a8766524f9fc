"""The sandbox page (decision 29, point 1): the sampled position drawn with the game's own board, the moves of the
seat shown, the bot, take back, the tree of lines.  Each write is a plain form (POST, then back to the page);
its API twin is in sandbox/api.py.  The board is drawn read-only: its own forms would post to the real table, so
none is offered, and the table object it is given carries no usable version."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from boards import registry
from config import request_limits
from engine.bots import levels as bot_levels
from games import selectors as game_selectors
from games.errors import NotFound, ServiceError
from games.models import Game
from games.views.common import seat_names, visible_game

from . import selectors, services

MAX_LISTED_ACTIONS = 400


class _ReadOnlyTable:
    """The real table as the board templates read it, with a version no move can be sent with."""

    version = -1

    def __init__(self, game: Game):
        self._game = game

    def __getattr__(self, name):
        return getattr(self._game, name)


def _tree(answer: dict) -> list[dict]:
    """The nodes in depth-first order with their depth, for an indented list."""
    children: dict = {}
    for node in answer["nodes"]:
        children.setdefault(node["parent"], []).append(node)
    on_path = set(answer["path"])
    out, stack = [], [(n, 0) for n in reversed(children.get(None, []))]
    while stack:
        node, depth = stack.pop()
        out.append({**node, "depth": depth, "on_path": node["id"] in on_path, "here": node["id"] == answer["current"]})
        stack += [(c, depth + 1) for c in reversed(children.get(node["id"], []))]
    return out


@login_required
@require_GET
def sandbox_page(request, pk: int):
    try:
        sandbox = selectors.sandbox_of(request.user, pk)
    except NotFound as exc:
        raise Http404(exc.message) from None
    try:
        seat = int(request.GET.get("seat", ""))
    except ValueError:
        seat = None
    answer = selectors.sandbox_answer(sandbox, seat)
    game = sandbox.game
    detail = game_selectors.table_detail(game, request.user)
    names = seat_names(detail)
    shown = answer["shown_seat"]
    step = {
        **detail,
        "view": answer["view"],
        "my_seat": shown,
        "legal_actions": [],
        "undoable": False,
        "my_turn": False,
        "status": Game.Status.FINISHED if answer["over"] else Game.Status.RUNNING,
        "seats": [
            {**s, "rank": None, "to_act": s["index"] in answer["to_act"], "deadline": None} for s in detail["seats"]
        ],
    }
    context = {
        "game": _ReadOnlyTable(game),
        "sandbox": sandbox,
        "answer": answer,
        "detail": detail,
        "names": names,
        "seats": [{"index": i, "name": n, "score": s} for i, (n, s) in enumerate(zip(names, answer["scores"]))],
        "actions": [
            {"json": json.dumps(a, separators=(",", ":")), "label": json.dumps(a, separators=(", ", ": "))}
            for a in answer["legal_actions"][:MAX_LISTED_ACTIONS]
        ],
        "more_actions": max(0, len(answer["legal_actions"]) - MAX_LISTED_ACTIONS),
        "tree": _tree(answer),
        "levels": [(name, level["label"]) for name, level in bot_levels().items()],
        "board": registry.present(game.kind, step, names),
        "board_templates": registry.board_template(game.kind),
    }
    return render(request, "sandbox/sandbox.html", context)


def _back(pk: int, request):
    seat = request.POST.get("shown_seat", "")
    return redirect(f"/sandboxes/{pk}/" + (f"?seat={int(seat)}" if seat.isdigit() else ""))


def _int(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@login_required
@require_POST
def sandbox_new(request, pk: int):
    game = visible_game(request, pk)
    try:
        sandbox = services.sandbox_create(
            user=request.user, game=game, seat=_int(request.POST.get("seat")), ply=_int(request.POST.get("ply"))
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("table", pk=pk)
    return redirect("sandbox", pk=sandbox.pk)


def _do(request, pk: int, write):
    try:
        write()
    except NotFound as exc:
        raise Http404(exc.message) from None
    except ServiceError as exc:
        messages.error(request, exc.message)
    return _back(pk, request)


@login_required
@require_POST
def sandbox_move(request, pk: int):
    try:
        action = request_limits.loads(request.POST.get("action", ""))
    except request_limits.JsonRefused as refused:
        messages.error(request, refused.message)
        return _back(pk, request)
    except ValueError:
        action = None
    return _do(
        request,
        pk,
        lambda: services.sandbox_move(
            user=request.user, sandbox_id=pk, seat=_int(request.POST.get("seat")), action=action
        ),
    )


@login_required
@require_POST
def sandbox_undo(request, pk: int):
    return _do(request, pk, lambda: services.sandbox_undo(user=request.user, sandbox_id=pk))


@login_required
@require_POST
def sandbox_goto(request, pk: int):
    return _do(
        request,
        pk,
        lambda: services.sandbox_goto(user=request.user, sandbox_id=pk, node=_int(request.POST.get("node"))),
    )


@login_required
@require_POST
def sandbox_bot(request, pk: int):
    return _do(
        request,
        pk,
        lambda: services.sandbox_bot_ask(
            user=request.user,
            sandbox_id=pk,
            seat=_int(request.POST.get("seat")),
            level=request.POST.get("level", "greedy"),
        ),
    )


@login_required
@require_POST
def sandbox_delete(request, pk: int):
    try:
        sandbox = selectors.sandbox_of(request.user, pk)
        table = sandbox.game_id
        services.sandbox_delete(user=request.user, sandbox_id=pk)
    except NotFound as exc:
        raise Http404(exc.message) from None
    return redirect("table", pk=table)

"""Reads of sandboxes (decision 29, point 1): hers only; the answer the API and the page build from.

A sandbox's state is a sample, so any seat's view of it may be shown to her (she plays every seat); nothing in
it comes from the real hidden state (sandbox.services).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils.translation import gettext as _

from games.errors import NotFound
from games.log_words import entry_words, seat_names

from .models import Sandbox
from .services import path_to, state_at


def sandbox_of(user, sandbox_id: int) -> Sandbox:
    """Her sandbox; anyone else's is answered as if it did not exist (404)."""
    found = (
        Sandbox.objects.select_related("game")
        .filter(pk=sandbox_id, owner_id=getattr(user, "pk", None))
        .prefetch_related("game__seats__user")
        .first()
    )
    if found is None:
        raise NotFound(_("There is no sandbox with that number that is yours."))
    return found


def sandboxes_of(user, game=None) -> list[Sandbox]:
    if not getattr(user, "is_authenticated", False):
        return []
    found = Sandbox.objects.filter(owner=user).select_related("game")
    if game is not None:
        found = found.filter(game=game)
    return list(found)


def sandbox_summary(sandbox: Sandbox) -> dict:
    return {
        "id": sandbox.pk,
        "table": sandbox.game_id,
        "game": sandbox.kind,
        "seat": sandbox.seat,
        "ply": sandbox.ply,
        "moves": len(sandbox.nodes) - 1,
        "created_at": sandbox.created_at,
        "used_at": sandbox.used_at,
        "expires_at": sandbox.used_at + timedelta(days=settings.TOPOS_SANDBOX_DAYS),
    }


def sandbox_answer(sandbox: Sandbox, seat: int | None = None) -> dict:
    """The sandbox as she sees it, shown from `seat` (default: a seat to decide, else her own)."""
    state = state_at(sandbox, sandbox.current)
    to_act = state.to_act()
    if seat is None or not 0 <= seat < sandbox.game.players:
        seat = sandbox.seat if sandbox.seat in to_act or not to_act else to_act[0]
    names = seat_names(sandbox.game)
    over = state.is_over()
    path = [n["id"] for n in path_to(sandbox.nodes, sandbox.current)]
    return {
        **sandbox_summary(sandbox),
        "current": sandbox.current,
        "path": path,
        "shown_seat": seat,
        "to_act": to_act,
        "over": over,
        "view": state.view(seat),
        "legal_actions": state.legal_actions(seat) if seat in to_act else [],
        "scores": list(state.scores()),
        "places": [r.to_json() for r in state.results()] if over else None,
        "bot": {"seat": sandbox.bot_seat, "level": sandbox.bot_level} if sandbox.bot_token else None,
        "max_moves": settings.TOPOS_SANDBOX_MAX_MOVES,
        "nodes": [
            {
                "id": n["id"],
                "parent": n["parent"],
                "seat": n["seat"],
                "action": n["action"],
                "by": n["by"],
                "words": entry_words(sandbox.kind, n["phrases"], names) if n["phrases"] else "",
            }
            for n in sandbox.nodes
        ],
    }

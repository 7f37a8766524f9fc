"""Private notes on the table and replay pages (decision 29, point 4): one form posts a note, another deletes it;
then back to the page the form was on.  API twin: notes/api.py."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import ServiceError
from games.views.common import visible_game

from . import services


def _ply(request) -> int | None:
    raw = request.POST.get("ply", "")
    return int(raw) if raw.isdigit() else None


def _back(request, pk: int):
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect("table", pk=pk)


@login_required
@require_POST
def note_save(request, pk: int):
    game = visible_game(request, pk)
    try:
        services.note_put(user=request.user, game=game, ply=_ply(request), text=request.POST.get("text", ""))
        messages.success(request, _("Your note is saved; only you can read it."))
    except ServiceError as exc:
        messages.error(request, exc.message)
    return _back(request, pk)


@login_required
@require_POST
def note_delete(request, pk: int):
    game = visible_game(request, pk)
    try:
        services.note_delete(user=request.user, game=game, ply=_ply(request))
    except ServiceError as exc:
        messages.error(request, exc.message)
    return _back(request, pk)

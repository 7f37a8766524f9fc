"""The chat panel of the table page (decision 17, point 1): its message list as an htmx fragment, and the forms
that post, delete, report and mute.  Reads from chat.selectors, writes through chat.services;
a refusal comes back as the fragment with its message (and its status, e.g. 429 with Retry-After)."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from feed.presence import presence_record
from games.errors import ServiceError, TooManyRequests
from games.views.common import FRAGMENT_HEADER, login_required_htmx, visible_game

from . import selectors as chat
from . import services
from .models import ChatReport


def _code(request) -> str:
    return request.GET.get("code") or request.POST.get("invite_code") or ""


def chat_context(request, game, *, error: str | None = None, notice: str | None = None) -> dict:
    user = request.user if request.user.is_authenticated else None
    hidden_since = chat.spectators_hidden_since(game, user)
    return {
        "game": game,
        "chat_messages": [
            {**chat.message_public(m, user), "at": m.created_at} for m in chat.messages_latest(game, user)
        ],
        "chat_stamp": chat.chat_stamp(game.pk, hidden_since=hidden_since),
        "chat_code": _code(request),
        "chat_user": user,
        "chat_seated": chat.is_player(game, user),
        "chat_spectators_hidden": hidden_since is not None,
        "chat_muted": list(chat.mutes_of_user(user)) if user is not None else [],
        "chat_reasons": ChatReport.Reason.choices,
        "chat_error": error,
        "chat_notice": notice,
    }


def _fragment(
    request,
    game,
    *,
    status: int = 200,
    error: str | None = None,
    notice: str | None = None,
    retry_after: int | None = None,
):
    if not request.htmx:  # a browser without script: back to the table (the message shows there)
        return redirect(reverse("table", args=[game.pk]) + "#chat")
    response = render(request, "chat/_log.html", chat_context(request, game, error=error, notice=notice), status=status)
    response[FRAGMENT_HEADER] = "1"  # table.js and chat.js swap a refusal that is one of ours
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _refused(request, game, exc: ServiceError):
    retry = exc.retry_after if isinstance(exc, TooManyRequests) else None
    return _fragment(request, game, status=exc.status_code, error=exc.message, retry_after=retry)


@require_GET
def table_chat(request, pk: int):
    """The message list; 204 when the stamp the page shows is still the stamp of the chat."""
    game = visible_game(request, pk)
    if not request.htmx:
        return redirect(reverse("table", args=[pk]) + "#chat")
    presence_record(game=game, user=request.user)  # ruling S6: the page is open (throttled)
    user = request.user if request.user.is_authenticated else None
    if request.GET.get("stamp") == chat.chat_stamp(game.pk, hidden_since=chat.spectators_hidden_since(game, user)):
        return HttpResponse(status=204)
    return _fragment(request, game)


@login_required_htmx
@require_POST
def table_chat_post(request, pk: int):
    game = visible_game(request, pk)
    try:
        services.chat_post(user=request.user, game_id=pk, body=request.POST.get("body", ""), invite_code=_code(request))
    except ServiceError as exc:
        return _refused(request, game, exc)
    return _fragment(request, game)


@login_required_htmx
@require_POST
def table_chat_delete(request, pk: int, message_id: int):
    game = visible_game(request, pk)
    try:
        services.chat_delete(user=request.user, game_id=pk, message_id=message_id, invite_code=_code(request))
    except ServiceError as exc:
        return _refused(request, game, exc)
    return _fragment(request, game)


@login_required_htmx
@require_POST
def table_chat_report(request, pk: int, message_id: int):
    game = visible_game(request, pk)
    try:
        services.chat_report(
            user=request.user,
            game_id=pk,
            message_id=message_id,
            reason=request.POST.get("reason", ChatReport.Reason.ABUSE),
            note=request.POST.get("note", ""),
            invite_code=_code(request),
        )
    except ServiceError as exc:
        return _refused(request, game, exc)
    return _fragment(request, game, notice=_("Thank you: the moderators will look at this message."))


@login_required_htmx
@require_POST
def table_chat_mute(request, pk: int):
    game = visible_game(request, pk)
    username = request.POST.get("username", "")
    try:
        if request.POST.get("unmute"):
            services.chat_unmute(user=request.user, username=username)
            notice = _("You see %(name)s's messages again.") % {"name": username}
        else:
            services.chat_mute(user=request.user, username=username)
            notice = _("You no longer see %(name)s's messages, at any table.") % {"name": username}
    except ServiceError as exc:
        return _refused(request, game, exc)
    return _fragment(request, game, notice=notice)

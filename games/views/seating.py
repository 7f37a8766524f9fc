"""Writes on the waiting room and the table: join, leave, bots, invitations, start, abort (alone or by agreement),
resign, rematch."""

from __future__ import annotations

from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import limits

from .. import services
from ..errors import ServiceError, TooManyRequests
from ..models import Game
from .common import done, login_required_htmx, refresh, reply, visible_game


def _refused(request, game: Game, exc: ServiceError):
    """The table again with the service's message, under the service's status (and when to retry, if limited)."""
    response = reply(request, refresh(game), status=exc.status_code, error=exc.message)
    if isinstance(exc, TooManyRequests):
        response["Retry-After"] = str(exc.retry_after)
    return response


def _run(request, pk: int, write, *, message=None):
    """Call one service for the visible table `pk`; reply with the fresh table or the service's message.

    `message` is a sentence, or a function of what the service returned.
    """
    game = visible_game(request, pk)
    try:
        written = write(game)
    except ServiceError as exc:
        return _refused(request, game, exc)
    return done(request, refresh(game), message=message(written) if callable(message) else message)


@login_required_htmx
@require_POST
def table_join(request, pk: int):
    code = request.POST.get("invite_code", "")
    return _run(
        request,
        pk,
        lambda g: services.game_join(user=request.user, game_id=g.pk, invite_code=code),
        message=_("You sit at this table now."),
    )


@login_required_htmx
@require_POST
def table_leave(request, pk: int):
    return _run(
        request, pk, lambda g: services.game_leave(user=request.user, game_id=g.pk), message=_("You left the table.")
    )


@login_required_htmx
@require_POST
def table_add_bot(request, pk: int):
    level = request.POST.get("level", "")
    return _run(request, pk, lambda g: services.game_add_bot(user=request.user, game_id=g.pk, level=level))


@login_required_htmx
@require_POST
def table_invite(request, pk: int):
    username = request.POST.get("username", "").strip()
    if not username:
        return reply(
            request, visible_game(request, pk), status=400, error=_("Write the username of the player to invite.")
        )
    address = limits.client_address(request)
    return _run(
        request,
        pk,
        lambda g: services.game_invite(user=request.user, game_id=g.pk, username=username, client_address=address),
        message=_("Invitation sent to %(name)s.") % {"name": username},
    )


@login_required_htmx
@require_POST
def table_start(request, pk: int):
    fill = request.POST.get("fill_with_bots", "")
    return _run(request, pk, lambda g: services.game_start(user=request.user, game_id=g.pk, fill_with_bots=fill))


@login_required_htmx
@require_POST
def table_abort(request, pk: int):
    return _run(
        request, pk, lambda g: services.game_abort(user=request.user, game_id=g.pk), message=_("The table is closed.")
    )


@login_required_htmx
@require_POST
def table_abort_agreement(request, pk: int):
    """Agree to abort a running game, or (agree=0) take the agreement back (games.services.aborting)."""
    agree = request.POST.get("agree", "1") != "0"

    def said(game):
        if game.status == Game.Status.ABORTED:
            return _("Every player still in the game agreed: it is aborted and has no result.")
        if agree:
            return _(
                "You agree to abort this game. It ends when every other player still in it agrees too, "
                "before the next move."
            )
        return _("You no longer agree to abort this game.")

    return _run(
        request, pk, lambda g: services.game_abort_agree(user=request.user, game_id=g.pk, agree=agree), message=said
    )


@login_required_htmx
@require_POST
def table_resign(request, pk: int):
    return _run(
        request,
        pk,
        lambda g: services.game_resign(user=request.user, game_id=g.pk),
        message=_resigned_words,
    )


def _resigned_words(game: Game) -> str:
    if game.status == Game.Status.ABORTED:  # ruling S1, turn 3
        return _(
            "You resigned before every player had played a turn of their own: the game is aborted, with no result."
        )
    if game.status == Game.Status.FINISHED:
        return _("You resigned; the game is over.")
    return _("You resigned; a bot plays your seat to the end.")


@login_required_htmx
@require_POST
def table_rematch(request, pk: int):
    """A plain form post (no htmx swap): on success the browser goes to the new table."""
    game = visible_game(request, pk)
    try:
        new = services.game_rematch(user=request.user, game_id=game.pk, client_address=limits.client_address(request))
    except ServiceError as exc:
        return _refused(request, game, exc)
    return redirect("table", pk=new.pk)

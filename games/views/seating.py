"""Writes on the waiting room and the table: join, leave, bots, invitations, start, abort, resign."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from .. import services
from ..errors import ServiceError
from .common import done, login_required_htmx, refresh, reply, visible_game


def _run(request, pk: int, write, *, message: str | None = None):
    """Call one service for the visible table `pk`; reply with the fresh table or the service's message."""
    game = visible_game(request, pk)
    try:
        write(game)
    except ServiceError as exc:
        return reply(request, refresh(game), status=exc.status_code, error=exc.message)
    return done(request, refresh(game), message=message)


@login_required_htmx
@require_POST
def table_join(request, pk: int):
    code = request.POST.get("invite_code", "")
    return _run(request, pk, lambda g: services.game_join(user=request.user, game_id=g.pk, invite_code=code),
                message=_("You sit at this table now."))


@login_required_htmx
@require_POST
def table_leave(request, pk: int):
    return _run(request, pk, lambda g: services.game_leave(user=request.user, game_id=g.pk),
                message=_("You left the table."))


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
        return reply(request, visible_game(request, pk), status=400, error=_("Write the username of the player to invite."))
    return _run(request, pk, lambda g: services.game_invite(user=request.user, game_id=g.pk, username=username),
                message=_("Invitation sent to %(name)s.") % {"name": username})


@login_required_htmx
@require_POST
def table_start(request, pk: int):
    fill = request.POST.get("fill_with_bots", "")
    return _run(request, pk, lambda g: services.game_start(user=request.user, game_id=g.pk, fill_with_bots=fill))


@login_required_htmx
@require_POST
def table_abort(request, pk: int):
    return _run(request, pk, lambda g: services.game_abort(user=request.user, game_id=g.pk),
                message=_("The table is closed."))


@login_required_htmx
@require_POST
def table_resign(request, pk: int):
    return _run(request, pk, lambda g: services.game_resign(user=request.user, game_id=g.pk),
                message=_("You resigned; a bot plays your seat to the end."))

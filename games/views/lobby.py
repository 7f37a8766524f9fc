"""The watch page and answering invitations from the pages (decision 17)."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from .. import selectors
from ..errors import ServiceError
from ..lobby_filters import LobbyFilterForm
from ..selectors import lobby, spectating
from ..services.invitations import invitation_accept, invitation_decline
from .common import login_required_htmx

WATCH_PER_PAGE = 30


@require_GET
def watch(request):
    """Running public games to watch, the latest activity first, with the lobby's filters and their spectators."""
    user = request.user if request.user.is_authenticated else None
    filters = LobbyFilterForm(request.GET)
    page = Paginator(lobby.tables_watchable(**filters.filters()), WATCH_PER_PAGE).get_page(request.GET.get("page"))
    games = list(page.object_list)
    counts = spectating.spectator_counts(games)
    tables = [
        {**summary, "spectators": counts[game.pk], "updated_at": game.updated_at}
        for game, summary in zip(games, selectors.table_summaries(games, user), strict=True)
    ]
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "games/watch.html",
        {"tables": tables, "filters": filters, "page_obj": page, "query": query.urlencode()},
    )


@login_required_htmx
@require_POST
def invitation_accept_view(request, pk: int):
    """Take the seat (games.services.invitations); the table then, or home with the reason it could not be."""
    try:
        game = invitation_accept(user=request.user, invitation_id=pk)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    if game.is_running:
        messages.success(request, _("You took the last seat: the game has started."))
    else:
        messages.success(request, _("You sit at this table now."))
    return redirect("table", pk=game.pk)


@login_required_htmx
@require_POST
def invitation_decline_view(request, pk: int):
    try:
        invitation_decline(user=request.user, invitation_id=pk)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Invitation declined."))
    return redirect("home")

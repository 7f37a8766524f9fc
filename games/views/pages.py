"""The home page and the create-table page."""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts import limits

from .. import selectors, services
from ..errors import ServiceError
from ..forms import TableCreateForm
from ..lobby_filters import LobbyFilterForm
from ..selectors import lobby
from ..services.challenges import challenge_create
from .common import login_required_htmx

OPEN_TABLES = 50


def home(request):
    """Open tables anyone can join (with the lobby's filters, decision 17), my invitations, and my games with those
    waiting for me first."""
    user = request.user if request.user.is_authenticated else None
    filters = LobbyFilterForm(request.GET)
    open_tables = selectors.table_summaries(lobby.tables_open_listed(user, **filters.filters())[:OPEN_TABLES], user)
    mine = selectors.table_summaries(selectors.games_of_user_sorted(user=user), user) if user else []
    return render(
        request,
        "games/home.html",
        {
            "open_tables": open_tables,
            "filters": filters,
            "invitations": list(lobby.invitations_pending(user)) if user else [],
            "my_games": mine,
            "my_turn_count": sum(1 for g in mine if g["my_turn"]),
        },
    )


def _open_table(request, form: TableCreateForm):
    """A plain table, or a challenge when the form names an opponent (games.services.challenges)."""
    opponent = form.cleaned_data.get("opponent", "").strip()
    if opponent:
        return challenge_create(
            user=request.user, username=opponent, client_address=limits.client_address(request), **form.service_kwargs()
        )
    return services.game_create(user=request.user, **form.service_kwargs())


@login_required_htmx
@require_http_methods(["GET", "POST"])
def table_new(request):
    """Open a table; the services decide what is valid and their messages go next to the fields."""
    # Decision 17: the "Challenge" button of a player page opens the form with her name filled in.
    form = TableCreateForm(request.POST or None, initial={"opponent": request.GET.get("opponent", "")[:150]})
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                game = _open_table(request, form)
            except ServiceError as exc:
                form.add_service_error(exc.message, exc.field)
            else:
                return redirect("table", pk=game.pk)
        status = 400
    return render(request, "games/table_new.html", {"form": form}, status=status)

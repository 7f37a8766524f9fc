"""The home page and the create-table page."""
from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from .. import selectors, services
from ..errors import ServiceError
from ..forms import LIVE_GAMES, TableCreateForm
from .common import login_required_htmx

OPEN_TABLES = 50


def home(request):
    """Open tables anyone can join, and my games with those waiting for me first."""
    user = request.user if request.user.is_authenticated else None
    open_tables = selectors.table_summaries(selectors.tables_open()[:OPEN_TABLES], user)
    mine = selectors.table_summaries(selectors.games_of_user_sorted(user=user), user) if user else []
    return render(request, "games/home.html", {
        "open_tables": open_tables,
        "my_games": mine,
        "my_turn_count": sum(1 for g in mine if g["my_turn"]),
    })


@login_required_htmx
@require_http_methods(["GET", "POST"])
def table_new(request):
    """Open a table; the services decide what is valid and their messages go next to the fields."""
    form = TableCreateForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                game = services.game_create(user=request.user, **form.service_kwargs())
            except ServiceError as exc:
                form.add_service_error(exc.message, exc.field)
            else:
                return redirect("table", pk=game.pk)
        status = 400
    return render(request, "games/table_new.html", {"form": form, "live_games": LIVE_GAMES}, status=status)

"""The tournament pages: the list, the create form, one tournament with its register/withdraw buttons.

Thin: reads from selectors, writes through services; a refusal is shown as a message on the page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from games.engine_texts import game_title
from games.errors import ServiceError

from . import selectors, services
from .models import Tournament

LISTED = 50


def _title(kind: str) -> str:
    from engine.core import all_games

    game = all_games().get(kind)
    return game_title(game.title) if game else kind


def tournament_list(request):
    sections = []
    for status in (
        Tournament.Status.REGISTERING,
        Tournament.Status.RUNNING,
        Tournament.Status.FINISHED,
        Tournament.Status.CANCELLED,
    ):
        rows = [
            {**selectors.tournament_summary(t), "title": _title(t.kind)}
            for t in selectors.tournaments_listed(status=status)[:LISTED]
        ]
        sections.append({"status": status, "rows": rows})
    return render(request, "tournaments/list.html", {"sections": sections})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request):
    from .forms import TournamentCreateForm

    form = TournamentCreateForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                tournament = services.tournament_create(user=request.user, **form.service_kwargs())
            except ServiceError as exc:
                form.add_service_error(exc.message, exc.field)
            else:
                return redirect("tournament", pk=tournament.pk)
        status = 400
    return render(request, "tournaments/new.html", {"form": form}, status=status)


def tournament(request, pk: int):
    row = selectors.tournaments_listed().filter(pk=pk).first()
    if row is None:
        raise Http404
    user = request.user if request.user.is_authenticated else None
    data = selectors.tournament_detail(row, user)
    return render(
        request, "tournaments/detail.html", {"t": data, "title": _title(row.kind), "group_tables": row.players > 2}
    )


def _write(service):
    @login_required
    @require_POST
    def view(request, pk: int):
        try:
            service(user=request.user, tournament_id=pk)
        except ServiceError as exc:
            messages.error(request, exc.message)
        return redirect("tournament", pk=pk)

    return view


tournament_register = _write(services.tournament_register)
tournament_withdraw = _write(services.tournament_withdraw)
tournament_cancel = _write(services.tournament_cancel)
tournament_start_now = _write(services.tournament_start_now)

"""Her turn queue's page (decision 29): the tables waiting for her, labelled (games.selectors.turn_queue;
GET /api/me/turns/)."""

from __future__ import annotations

from django.shortcuts import render

from ..selectors.turn_queue import turns_waiting
from .common import login_required_htmx


@login_required_htmx
def turns(request):
    return render(request, "games/turns.html", {"turns": turns_waiting(request.user)})

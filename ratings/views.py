"""The leaderboard pages: one per rating key, paged by keyset cursors (ratings.selectors.leaderboard)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from . import selectors
from .keys import key_label, rating_keys
from .system import PROVISIONAL_GAMES


def _cursor(request, name: str):
    """The page's cursor; a mangled one (an edited address) shows the top of the board instead of an error."""
    text = request.GET.get(name)
    try:
        return selectors.Cursor.parse(text) if text else None
    except selectors.BadCursor:
        return None


@require_GET
def leaderboards(request):
    return redirect("leaderboard", key=rating_keys()[0])


@require_GET
def leaderboard(request, key: str):
    if key not in rating_keys():
        raise Http404(_("There is no leaderboard called %(key)s.") % {"key": key})
    before = _cursor(request, "before")
    page = selectors.leaderboard(key, before=before, after=None if before else _cursor(request, "after"))
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "key": key,
            "label": key_label(key),
            "page": page,
            "boards": [(k, key_label(k)) for k in rating_keys()],
            "provisional_games": PROVISIONAL_GAMES,
        },
    )

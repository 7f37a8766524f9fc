"""The How to play pages: one per game, in the reader's language, with diagrams drawn from real positions.

The long prose is one template per game and language (templates/rules/<game>.<locale>.html), English being
the fallback: a translator works on a whole page in context rather than on hundreds of sentences cut apart.
The diagrams are positions built by the engines and drawn by the table's presenters (games.rules_diagrams).
"""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.template.loader import select_template
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_GET

from .. import rules_diagrams, rules_docs
from ..engine_texts import game_title

# The games in the order the site lists them, each with a line saying what it is.
RULE_GAMES = {
    "topoum": gettext_noop("Moles fighting for lines of sight on a hex battlefield, 2 to 4 players."),
    "toppo": gettext_noop("A fast matching card game, played live or by correspondence, 2 to 8 players."),
    "topology": gettext_noop("Double-hex tiles whose curves close rings, 2 to 4 players."),
}
TITLES = {"topoum": "Topoum", "toppo": "Toppo", "topology": "Topology"}  # the engines' titles, translated by game_title


def rules_url(kind: str) -> str:
    """The How to play page of game `kind` (the catalogue API and the table pages link to it)."""
    return reverse("rules_game", args=[kind])


def prose_templates(kind: str) -> list[str]:
    """The page of `kind` in the active language first, English when there is none in it."""
    locale = translation.to_locale(translation.get_language() or "en")
    return [f"rules/{kind}.{locale}.html", f"rules/{kind}.en.html"]


@require_GET
def rules_index(request):
    games = [{"kind": kind, "title": game_title(TITLES[kind]), "summary": _(summary), "url": rules_url(kind)}
             for kind, summary in RULE_GAMES.items()]
    return render(request, "rules/index.html", {"games": games, "rulings_url": reverse("rules_rulings")})


@require_GET
def rules_rulings(request):
    """The rulings the code and these pages cite (docs/rules/), in English: the project's reference text."""
    return render(request, "rules/rulings.html", {"parts": rules_docs.rulings_html()})


@require_GET
def rules_game(request, kind: str):
    if kind not in RULE_GAMES:
        raise Http404(_("There is no game called %(name)s; the rules are for Topoum, Toppo and Topology.")
                      % {"name": kind[:40]})
    prose = select_template(prose_templates(kind))
    others = [{"kind": k, "title": game_title(TITLES[k]), "url": rules_url(k)} for k in RULE_GAMES if k != kind]
    return render(request, "rules/game.html", {
        "kind": kind, "title": game_title(TITLES[kind]), "prose": prose.template.name, "d": rules_diagrams.diagrams_for(kind),
        "others": others,
    })

"""The How to play pages: one per game, in the reader's language, with diagrams drawn from real positions.

The long prose is one template per game and language (boards/<game>/rules.<locale>.html in the game's home),
English being the fallback: a translator works on a whole page in context rather than on hundreds of sentences
cut apart.
The diagrams are positions built by the engines and drawn by the table's presenters
(boards/<game>/diagrams.py); the line saying what each game is comes from its words module.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.template.loader import select_template
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from boards import registry
from boards.registry import game_module
from engine.core import all_games

from .. import hooks, rules_docs
from ..engine_texts import game_title
from ..refusal_words import listing


def rule_games() -> list:
    """The games in the order the site lists them (by title, as the new-table form does)."""
    return sorted(all_games().values(), key=lambda g: g.title)


def rules_url(kind: str) -> str:
    """The How to play page of game `kind` (the catalogue API and the table pages link to it)."""
    return reverse("rules_game", args=[kind])


def prose_templates(kind: str) -> list[str]:
    """The page of `kind` in the active language first, English when there is none in it."""
    locale = translation.to_locale(translation.get_language() or "en")
    return registry.rules_templates(kind, locale)


@require_GET
def rules_index(request):
    games = [
        {
            "kind": g.name,
            "title": game_title(g.title),
            "summary": game_module(g.name, "words").summary_words(),
            "url": rules_url(g.name),
        }
        for g in rule_games()
    ]
    return render(request, "rules/index.html", {"games": games, "rulings_url": reverse("rules_rulings")})


@require_GET
def rules_rulings(request):
    """The rulings the code and these pages cite (docs/rules/), in English: the project's reference text."""
    return render(request, "rules/rulings.html", {"parts": rules_docs.rulings_html()})


@require_GET
def rules_game(request, kind: str):
    diagrams = game_module(kind, "diagrams")
    if diagrams is None:
        raise Http404(
            _("There is no game called %(kind)s; choose one of %(games)s.")
            % {"kind": kind[:40], "games": listing(game_title(g.title) for g in rule_games())}
        )
    prose = select_template(prose_templates(kind))
    game = all_games()[kind]
    others = [
        {"kind": g.name, "title": game_title(g.title), "url": rules_url(g.name)} for g in rule_games() if g.name != kind
    ]
    return render(
        request,
        "rules/game.html",
        {
            "kind": kind,
            "title": game_title(game.title),
            "prose": prose.template.name,
            "d": diagrams.diagrams(),
            "others": others,
            "bots": hooks.bot_strengths.joined(kind=kind),  # ratings' calibration (games.hooks)
        },
    )

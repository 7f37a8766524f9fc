"""The boards' registry as templates read it: a table loads its game's script, every page the boards' styles, and the
site names its games from the registry rather than in words written out per game."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe

from engine.core import all_games

from .. import registry
from ..wording import all_of, game_title

register = template.Library()


@register.simple_tag
def board_script(kind: str) -> str:
    """The game's table script, loaded after table.js (whose helpers it uses); nothing for a game without one."""
    path = registry.script(kind)
    return format_html('<script src="{}" defer></script>', static(path)) if path else ""


@register.simple_tag
def board_stylesheets() -> str:
    """Every board's styles: boards are drawn at tables, replays, sandboxes and on the rules pages alike."""
    return format_html_join("\n  ", '<link rel="stylesheet" href="{}">', ((static(p),) for p in registry.stylesheets()))


@register.simple_tag
def board_form_scripts() -> str:
    """The games' scripts for the create-table form (loaded after create_table.js, whose helper they call)."""
    return format_html_join("", '<script src="{}" defer></script>', ((static(p),) for p in registry.form_scripts()))


@register.simple_tag
def game_names() -> str:
    """Every registered game's name in the reader's language, as one phrase: "Topology, Topoum and Toppo"."""
    return all_of(game_title(game.title) for game in all_games().values())


@register.simple_tag
def live_bots_help(kind: str = "") -> str:
    """How bots pace themselves at a live table, in the words of each game that says it (`live_bots_words()` in its
    words module): the game `kind`'s, or every game's when no kind is given (the new-table form)."""
    kinds = [kind] if kind else registry.board_kinds()
    words = [getattr(registry.game_module(k, "words"), "live_bots_words", None) for k in kinds]
    # The words are the catalogue's, shown as {% translate %} shows them (not escaped again).
    return format_html_join("", '<p class="help bot-pace">{}</p>', ((mark_safe(say()),) for say in words if say))

"""How a rating reads (ruling S5).  Names with their rating beside them are drawn by `player_link`
(games/templatetags/topos.py) with ratings/templates/ratings/_rating.html; a badge is {"value", "provisional", "games"}.
"""

from __future__ import annotations

from django import template

from ratings.bot_strength import level_strength

register = template.Library()


@register.filter
def rating_text(rating: dict | None) -> str:
    """ "1520", or "1520?" while provisional (fewer than ratings.system.PROVISIONAL_GAMES rated games)."""
    if not rating:
        return ""
    return f"{rating['value']}{'?' if rating.get('provisional') else ''}"


@register.filter
def signed(delta: int) -> str:
    """A rating change as people write it: +12, −7 (a real minus sign), ±0."""
    if delta > 0:
        return f"+{delta}"
    return f"\u2212{-delta}" if delta < 0 else "\u00b10"


@register.simple_tag
def bot_strength(level: str | None, game) -> str:
    """A bot seat's published strength at this table's game and pace ("≈ 1,640"; "" for a person or no figure)."""
    return level_strength(level, game.kind, game.pace) if level else ""

"""How a rating reads (ruling S5).  Names with their rating beside them are drawn by `player_link`
(games/templatetags/topos.py) with templates/ratings/_rating.html; a badge is {"value", "provisional", "games"}.
"""

from __future__ import annotations

from django import template

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

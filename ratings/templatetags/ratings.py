"""A player's name with her rating beside it, the same on every page (ruling S5): `{% player_name name rating %}`.

`rating` is a badge from ratings.selectors ({"value", "provisional", "games"}) or None (a bot, an open seat).
"""
from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def rating_text(rating: dict | None) -> str:
    """"1520", or "1520?" while provisional (fewer than ratings.system.PROVISIONAL_GAMES rated games)."""
    if not rating:
        return ""
    return f"{rating['value']}{'?' if rating.get('provisional') else ''}"


@register.filter
def signed(delta: int) -> str:
    """A rating change as people write it: +12, −7 (a real minus sign), ±0."""
    if delta > 0:
        return f"+{delta}"
    return f"\u2212{-delta}" if delta < 0 else "\u00b10"


@register.inclusion_tag("ratings/_player_name.html")
def player_name(name: str, rating: dict | None = None) -> dict:
    return {"name": name, "rating": rating}

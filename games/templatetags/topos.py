"""Small template helpers of the site's pages."""
from __future__ import annotations

import json

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

register = template.Library()


@register.filter
def get_item(mapping, key):
    """mapping[key] in a template, None when missing."""
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def pretty_json(value) -> str:
    return json.dumps(value, indent=2, sort_keys=True)


@register.simple_tag
def pace_text(pace: str, turn_seconds: int) -> str:
    """"3 days per turn" or "60 seconds per move"."""
    if pace == "live":
        if turn_seconds < 60 or turn_seconds % 60:
            return ngettext("%(n)d second per move", "%(n)d seconds per move", turn_seconds) % {"n": turn_seconds}
        minutes = turn_seconds // 60
        return ngettext("%(n)d minute per move", "%(n)d minutes per move", minutes) % {"n": minutes}
    days = max(1, turn_seconds // 86400)
    return ngettext("%(n)d day per turn", "%(n)d days per turn", days) % {"n": days}


@register.simple_tag
def options_text(options: dict) -> str:
    """The table's options in a few words (only those that are switched on or set)."""
    parts = []
    for key, value in (options or {}).items():
        if key == "pace" or value in (False, None, "", []):
            continue
        label = key.replace("_", " ")
        parts.append(label if value is True else f"{label}: {', '.join(map(str, value)) if isinstance(value, list) else value}")
    return ", ".join(parts) or _("standard rules")


@register.filter
def status_text(status: str) -> str:
    return {"open": _("waiting for players"), "running": _("in play"), "finished": _("finished"),
            "aborted": _("aborted")}.get(status, status)

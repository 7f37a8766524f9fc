"""Small template helpers of the site's pages."""

from __future__ import annotations

import json

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import personal
from accounts.names import deleted_number, shown_name
from boards.registry import game_module
from engine.bots import levels as bot_levels
from engine.core import InvalidOptions, get_game

from ..engine_texts import engine_text, option_value
from ..log_words import bot_name
from ..ranking import winners_words

register = template.Library()
MAX_LISTED = 4


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
    """ "3 days per turn" or "60 seconds per move"."""
    if pace == "live":
        if turn_seconds < 60 or turn_seconds % 60:
            return ngettext("%(n)d second per move", "%(n)d seconds per move", turn_seconds) % {"n": turn_seconds}
        minutes = turn_seconds // 60
        return ngettext("%(n)d minute per move", "%(n)d minutes per move", minutes) % {"n": minutes}
    days = max(1, turn_seconds // 86400)
    return ngettext("%(n)d day per turn", "%(n)d days per turn", days) % {"n": days}


@register.simple_tag
def options_text(kind: str, options: dict) -> str:
    """The table's options in a few words: the game's own plain words where its words module has them (decision 26,
    `options_summary(options)`), else by the game's labels (only those switched on or set)."""
    words = game_module(kind, "words")
    summary = getattr(words, "options_summary", None)
    if summary is not None:
        return "; ".join(summary(options or {})) or _("standard rules")
    try:
        labels = {o["name"]: o["label"] for o in get_game(kind).metadata()["options"]}
    except InvalidOptions:  # a game no longer registered still shows its table
        labels = {}
    parts = []
    for key, value in (options or {}).items():
        if key == "pace" or value in (False, None, "", []):
            continue
        label = engine_text(labels.get(key) or key.replace("_", " "))
        if value is True:
            parts.append(label)
        elif isinstance(value, list):
            shown = ", ".join(option_value(v) for v in value[:MAX_LISTED])
            parts.append(f"{label}: {shown}" + ("…" if len(value) > MAX_LISTED else ""))
        else:
            parts.append(f"{label}: {option_value(value)}")
    return "; ".join(parts) or _("standard rules")


@register.filter
def local_time(moment) -> str:
    """ "2026-11-28 14:15 (Asia/Taipei)": a moment in the reader's zone, named (accounts.personal.local_time, the
    same words as the emails and the API); takes a datetime or an ISO string (a seat's deadline)."""
    moment = parse_datetime(moment) if isinstance(moment, str) else moment
    return personal.local_time(moment) if moment else ""


@register.filter
def until(iso: str | None) -> str:
    """ "2 days, 3 hours" from now until an ISO date (a seat's deadline); empty when unknown."""
    when = parse_datetime(iso) if isinstance(iso, str) else iso
    return _time_left(when) if when else ""


def _time_left(when, now=None) -> str:
    """timeuntil, but under a minute in seconds: a live clock never shows "0 minutes" (decision 13)."""
    from django.utils import timezone

    now = now or timezone.now()
    seconds = int((when - now).total_seconds())
    if 0 <= seconds < 60:
        return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}
    return timeuntil(when, now)


@register.filter
def bot_level_text(level: str | None) -> str:
    """A bot level's label in the reader's language ("random" -> "Random")."""
    return engine_text(bot_levels().get(level or "", {}).get("label", level or ""))


@register.filter
def seconds_since(value) -> int:
    """Whole seconds from an ISO moment (or datetime) to now, never negative: a bot's thinking time (decision 26)."""
    when = parse_datetime(value) if isinstance(value, str) else value
    if when is None:
        return 0
    return max(int((timezone.now() - when).total_seconds()), 0)


@register.filter
def status_text(status: str) -> str:
    return {
        "open": _("waiting for players"),
        "running": _("in play"),
        "finished": _("finished"),
        "aborted": _("aborted"),
    }.get(status, status)


@register.simple_tag
def winners_text(detail: dict, names: list[str]) -> str:
    """A finished game's headline: who won (ruling S1; nobody when every player left)."""
    return winners_words([names[i] for i in detail.get("winners") or [] if i < len(names)])


@register.filter
def in_days(seconds) -> str:
    """Seconds as days with one decimal ("12.5"), in the reader's number format (vacation days, ruling S4)."""
    from django.utils.formats import number_format

    return number_format(round((seconds or 0) / 86400, 1), decimal_pos=1)


@register.filter
def duration(seconds) -> str:
    """Seconds as "2 days, 3 hours" (a time bank, ruling S4)."""
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    return _time_left(now + timedelta(seconds=int(seconds or 0)), now)


@register.filter
def as_datetime(iso: str | None):
    """An ISO date from a selector's dict, as a datetime for the `date` filter."""
    return parse_datetime(iso) if isinstance(iso, str) else iso


def _bot_account_names(context) -> set[str]:
    """The names of bot accounts, read once per request: few accounts are bots, many names are drawn."""
    request = context.get("request")
    names = getattr(request, "_topos_bot_accounts", None)
    if names is None:
        from django.contrib.auth import get_user_model

        names = set(get_user_model().objects.filter(is_bot_account=True).values_list("username", flat=True))
        if request is not None:
            request._topos_bot_accounts = names
    return names


@register.simple_tag(takes_context=True)
def player_link(context, who, label=None, rating=None) -> str:
    """A name shown anywhere on the site, linked to the player's page (decision 11): the one place that draws it.

    `who` is a username, or a seat summary (games.selectors.seat_summary: a bot's seat reads "Strong 2"),
    or None for a bot or an open seat, which show `label` unlinked.  `label` replaces the shown name.
    A bot account's name (decision 12) carries a BOT mark.
    """
    bot_account = None
    if isinstance(who, dict):
        username = who.get("player")
        if label is None and not username:
            label = bot_name(who.get("bot_level"), who.get("index"))
        bot_account = who.get("bot_account")
        who = username
    elif hasattr(who, "is_bot_account"):  # a User
        bot_account, who = who.is_bot_account, who.username
    if not who:
        return conditional_escape(label if label is not None else "")
    if deleted_number(str(who)) is not None:  # ruling S8: a deleted account has no page, and a neutral name
        return conditional_escape(shown_name(str(who)))
    if bot_account is None:
        bot_account = str(who) in _bot_account_names(context)
    link = format_html(
        '<a class="player-link" href="{}">{}</a>', reverse("player", args=[who]), label if label is not None else who
    )
    if bot_account:
        link += format_html(
            ' <span class="bot-account-mark" title="{}">{}</span>',
            _("A bot account: a program plays it through the API"),
            _("BOT"),
        )
    if rating:
        link += mark_safe(" ") + render_to_string("ratings/_rating.html", {"rating": rating})
    return link

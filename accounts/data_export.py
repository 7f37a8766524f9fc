"""Her data as one JSON file (ruling S8): a registry of sections, each a function of the user.

Apps register their sections (`section(name, covers=[...])`) from their AppConfig.ready, naming the links to the
user ("app_label.Model.field", as accounts.deletion names them) whose rows the section tells.  Rows of any other
model linked to her, one added later by anyone included, are not forgotten: the section "other" lists them
field by field from the model registry, leaving out whatever looks like a secret (`SECRET_WORDS`) and the links
named in `NOT_EXPORTED` (kept for the site's own working: a hash of a counted login, a cached answer).
tests/accounts/test_account_data.py holds every user link to one of the three.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal

from django.utils import timezone

from .deletion import user_links

FORMAT = "topos-account-data/1"
SECTIONS: dict[str, Callable] = {}
COVERED: dict[str, str] = {}  # link -> the section that tells its rows
NOT_EXPORTED: dict[str, str] = {}  # link -> why not
# Fields never written out by the generic section: secrets and their hashes.
SECRET_WORDS = ("secret", "digest", "password", "token", "key", "auth", "p256dh", "signature")


def section(name: str, *, covers: tuple[str, ...] = ()) -> Callable:
    """Register fn(user) -> JSON-able data as the export's section `name`, telling the rows of `covers`."""

    def register(fn: Callable) -> Callable:
        SECTIONS[name] = fn
        for link in covers:
            COVERED[link] = name
        return fn

    return register


def not_exported(link: str, reason: str) -> None:
    NOT_EXPORTED[link] = reason


def _plain(value):
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict | list | str | int | float | bool) or value is None:
        return value
    return str(value)


def _generic_rows(user) -> dict:
    """Rows of the models linked to her that no section tells, field by field, secrets left out."""
    out: dict[str, list] = {}
    for link in user_links():
        if link.label in COVERED or link.label in NOT_EXPORTED or link.model._meta.auto_created:
            continue
        names = [
            f.attname
            for f in link.model._meta.concrete_fields
            if not any(word in f.name.lower() for word in SECRET_WORDS)
        ]
        rows = link.model._default_manager.filter(**{link.field.name: user.pk}).values(*names)[:10_000]
        found = [{k: _plain(v) for k, v in row.items()} for row in rows]
        if found:
            out[link.label] = found
    return out


def account_data(user) -> dict:
    """Everything the site holds about `user`, one section per registered name, then "other"."""
    data = {"format": FORMAT, "exported_at": timezone.now().isoformat()}
    for name, fn in SECTIONS.items():
        data[name] = fn(user)
    data["other"] = _generic_rows(user)
    return data


@section("profile", covers=("accounts.User_groups.user", "accounts.User_user_permissions.user"))
def _profile(user) -> dict:
    return {
        "username": user.username,
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
        "bot_account": user.is_bot_account,
    }


@section("settings")
def _settings(user) -> dict:
    return {"language": user.language, "time_zone": user.time_zone, "auto_play_forced": user.auto_play_forced}


@section("tokens", covers=("accounts.ApiToken.user",))
def _tokens(user) -> list[dict]:
    # Names and dates only: the key was shown once, and not even its hash leaves the site.
    return [
        {
            "name": t.name,
            "prefix": t.prefix,
            "created_at": t.created_at.isoformat(),
            "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
            "revoked_at": t.revoked_at.isoformat() if t.revoked_at else None,
            "expires_at": t.expires_at.isoformat() if t.expires_at else None,
        }
        for t in user.api_tokens.order_by("created_at")
    ]


@section("blocks", covers=("accounts.Block.blocker",))
def _blocks(user) -> list[dict]:
    return [
        {"blocked": b.blocked.username, "created_at": b.created_at.isoformat()}
        for b in user.blocks_made.select_related("blocked").order_by("created_at")
    ]


# Who blocked her is theirs to know, not hers (ruling S7: blocking is private).
not_exported("accounts.Block.blocked", "Another person's block: private to her (ruling S7).")

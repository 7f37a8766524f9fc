"""A deleted account's neutral name (ruling S8): "deleted-N" as data, "deleted player N" in the reader's language.

The user row of a deleted account stays (her seats keep their place) with its username replaced by
`deleted_username(pk)`; pages and notifications show it through `shown_name`, translated when read.  Sign-up
refuses names of that shape (accounts.forms), so a living account can never pass for a deleted one.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _

DELETED_PREFIX = "deleted-"
_DELETED = re.compile(r"^deleted-(\d+)$")


def deleted_username(pk: int) -> str:
    return f"{DELETED_PREFIX}{pk}"


def deleted_email(pk: int) -> str:
    # Unique like every address (the column is), and of a reserved domain that can never receive mail (RFC 2606).
    return f"{DELETED_PREFIX}{pk}@deleted.invalid"


def deleted_number(username: str | None) -> int | None:
    match = _DELETED.match(username or "")
    return int(match.group(1)) if match else None


def shown_name(username: str | None) -> str:
    """A username as a reader sees it: a deleted account's as "deleted player N" in her language."""
    number = deleted_number(username)
    if number is None:
        return username or ""
    return _("deleted player %(number)d") % {"number": number}

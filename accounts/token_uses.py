"""When an API token was last used, without a write on a read request (decision 16, point 0).

A request with a token notes the time in the cache (Redis in production, shared by every web process), never in
the token's row; beat's `token_uses_record` writes the noted times to the rows every LAST_USED_PRECISION, and the
tokens page and API show the later of the row and the note, so a token only ever used to watch (a bot polling,
an export script) never looks unused to the owner deciding which to revoke.  Writes note it the same way: a move
gained nothing from a second write on the token's hot row.
"""

from __future__ import annotations

import datetime as dt
import logging
import time

from django.core.cache import cache
from django.db.models import Q

from config.redis_clients import outage_log

from .models import ApiToken

logger = logging.getLogger(__name__)

LAST_USED_PRECISION = dt.timedelta(minutes=5)  # "last used" is shown to within this
# A note outlives many sweeps, so a sweep that did not run (beat down for a while) loses nothing.
NOTE_SECONDS = 24 * 3600
# This process noted these tokens' use at these monotonic times: within LAST_USED_PRECISION it does not note again,
# so a polling bot costs the cache one write per process every five minutes, not one per request.
_noted_here: dict[int, float] = {}
_NOTED_HERE_MOST = 10_000


def _key(token_id: int) -> str:
    return f"token-used:{token_id}"


def token_use_note(token: ApiToken, now: dt.datetime) -> None:
    """A request used `token` at `now`: noted in the cache, unless its row or this process already knows it
    to within LAST_USED_PRECISION.  A cache that does not answer loses the note (logged), never the request."""
    if token.last_used_at is not None and now - token.last_used_at < LAST_USED_PRECISION:
        return
    noted = _noted_here.get(token.pk)
    if noted is not None and time.monotonic() - noted < LAST_USED_PRECISION.total_seconds():
        return
    try:
        cache.set(_key(token.pk), now.timestamp(), timeout=NOTE_SECONDS)
    except Exception:  # noqa: BLE001 - any cache failure: the note is a nicety, the request must go on
        outage_log(logger, "token-use-note", "A token's last use was not noted: the cache did not answer")
        return
    if len(_noted_here) >= _NOTED_HERE_MOST:
        _noted_here.clear()
    _noted_here[token.pk] = time.monotonic()


def token_uses_noted(token_ids) -> dict[int, dt.datetime]:
    """The uses noted in the cache for these tokens (by id), as times; none for a token without a note."""
    token_ids = list(token_ids)
    if not token_ids:
        return {}
    try:
        found = cache.get_many([_key(pk) for pk in token_ids])
    except Exception:  # noqa: BLE001 - the rows' own times are shown then
        outage_log(logger, "token-use-read", "The tokens' noted uses were not read: the cache did not answer")
        return {}
    return {pk: dt.datetime.fromtimestamp(found[_key(pk)], tz=dt.UTC) for pk in token_ids if _key(pk) in found}


def with_noted_uses(tokens) -> list[ApiToken]:
    """The tokens, each with `last_used_at` the later of its row's and its noted use (for showing, never saved)."""
    tokens = list(tokens)
    noted = token_uses_noted(t.pk for t in tokens)
    for token in tokens:
        use = noted.get(token.pk)
        if use is not None and (token.last_used_at is None or use > token.last_used_at):
            token.last_used_at = use
    return tokens


def token_uses_record(*, batch: int = 500) -> int:
    """Beat: write the noted uses later than the rows' to the rows of tokens not revoked; how many were written.

    The condition is repeated in each UPDATE, so a later time written meanwhile (a sweep running twice at once)
    is never put back."""
    written = 0
    ids = list(ApiToken.objects.filter(revoked_at__isnull=True).order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), batch):
        for pk, use in token_uses_noted(ids[start : start + batch]).items():
            earlier = Q(last_used_at__isnull=True) | Q(last_used_at__lt=use)
            written += ApiToken.objects.filter(earlier, pk=pk).update(last_used_at=use)
    return written

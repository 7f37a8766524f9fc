"""What the feed adds to the deletion of her account (ruling S8): registered from FeedConfig.ready.

Her own events are deleted with her (CASCADE); they are not exported: purged within days, the notifications section
tells the same.
"""

from __future__ import annotations

from accounts.data_export import not_exported
from accounts.deletion import scrubber
from games.account_data import rename_in_rows

from .models import Event

not_exported("feed.Event.user", "The event feed, purged within days; the notifications section tells the same.")


@scrubber
def _rename_in_others_events(user, old: str, new: str) -> None:
    """Other people's feed events store the names of those they tell of, as data (decision 13): hers becomes the
    neutral one, so nothing sent after her deletion names her."""
    rename_in_rows(Event, "data", old, new)

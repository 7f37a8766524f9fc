"""Where the feed lets a later app add to its streams without importing it (the app order, docs/architecture.md).

The chat comes after the feed: a table's stream carries its stamp, so the chat fills `table_stream_parts`.
"""

from __future__ import annotations

from games.hooks import Hook

# (game_id, hidden_since=) -> (kind, data): one event of a table's stream, sent at once and whenever `data` changes.
# `hidden_since`: for a player while the game runs, the game's start; what spectators wrote since is not hers yet.
table_stream_parts = Hook("table_stream_parts")

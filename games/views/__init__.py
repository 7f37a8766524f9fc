"""The HTMX pages of the site (thin: selectors for reads, services for writes)."""

from .lobby import invitation_accept_view, invitation_decline_view, watch
from .pages import home, table_new
from .replay import table_replay
from .rules import rules_game, rules_index, rules_rulings
from .seating import (
    table_abort,
    table_abort_agreement,
    table_add_bot,
    table_invite,
    table_join,
    table_leave,
    table_rematch,
    table_resign,
    table_start,
)
from .table import table, table_act, table_log_json, table_poll

__all__ = [
    "invitation_accept_view",
    "invitation_decline_view",
    "watch",
    "home",
    "table",
    "table_abort",
    "table_abort_agreement",
    "table_act",
    "table_add_bot",
    "table_invite",
    "table_join",
    "table_leave",
    "table_log_json",
    "table_new",
    "table_poll",
    "table_rematch",
    "table_replay",
    "table_resign",
    "table_start",
    "rules_game",
    "rules_index",
    "rules_rulings",
]

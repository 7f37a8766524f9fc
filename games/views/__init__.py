"""The HTMX pages of the site (thin: selectors for reads, services for writes)."""
from .pages import home, table_new
from .seating import table_abort, table_add_bot, table_invite, table_join, table_leave, table_resign, table_start
from .table import table, table_act, table_log_json, table_poll

__all__ = [
    "home", "table", "table_abort", "table_act", "table_add_bot", "table_invite", "table_join", "table_leave",
    "table_log_json", "table_new", "table_poll", "table_resign", "table_start",
]

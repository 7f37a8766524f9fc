"""The games app in the Django admin."""

# Chat at every table (issue 17, point 1): reports and messages.
from .chat import admin as chat_admin  # noqa: F401

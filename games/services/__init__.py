"""Every write on games goes through one of these services (HackSoftware styleguide: `<entity>_<action>`)."""
from .moves import SubmitResult, action_submit, bot_move_play, deadline_expire, game_resign
from .tables import (
    game_abort,
    game_add_bot,
    game_create,
    game_invite,
    game_join,
    game_leave,
    game_start,
)

__all__ = [
    "SubmitResult", "action_submit", "bot_move_play", "deadline_expire", "game_resign",
    "game_abort", "game_add_bot", "game_create", "game_invite", "game_join", "game_leave", "game_start",
]

"""Every write on games goes through one of these services (HackSoftware styleguide: `<entity>_<action>`)."""

from .aborting import game_abort, game_abort_agree
from .bot_accounts import account_make_bot
from .bots import bot_tasks_claim, bot_turn_play
from .moves import SubmitResult, action_submit, deadline_expire, game_resign
from .rematch import game_rematch
from .tables import (
    game_add_bot,
    game_create,
    game_invite,
    game_join,
    game_leave,
    game_start,
)

__all__ = [
    "SubmitResult",
    "account_make_bot",
    "action_submit",
    "bot_tasks_claim",
    "bot_turn_play",
    "deadline_expire",
    "game_resign",
    "game_abort",
    "game_abort_agree",
    "game_add_bot",
    "game_create",
    "game_invite",
    "game_join",
    "game_leave",
    "game_rematch",
    "game_start",
]

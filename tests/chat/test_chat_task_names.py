"""The chat's task keeps the name it had in games.tasks, and the outbox sweep still sends lost messages again."""

from __future__ import annotations

import pytest

from chat import tasks
from config.celery import _registered, task_module
from games import hooks
from games import tasks as games_tasks


def test_the_dispatch_task_is_registered_under_its_old_name_from_the_chat():
    assert task_module("games.tasks.chat_message_effects") == "chat.tasks"
    assert _registered("games.tasks.chat_message_effects").run is tasks.chat_message_effects.run
    assert task_module("games.tasks.game_effects") == "games.tasks"  # the others are where they were


@pytest.mark.django_db
def test_the_chat_takes_its_part_in_the_games_outbox_sweep():
    # games never imports the chat: the chat connects its part of the sweep to games.hooks.outbox_sweep (chat/apps.py)
    answers = hooks.outbox_sweep()
    assert {"chat": 0} in answers
    assert games_tasks.effects_sweep()["chat"] == 0

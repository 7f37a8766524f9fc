"""The tournaments' tasks keep the names they had inside games (a queue in flight across a deploy, the beat)."""

from __future__ import annotations

from django.conf import settings

from config.celery import _registered, task_module
from tournaments import tasks

NAMES = ["tournaments_sweep", "tournament_settle", "tournament_start", "tournament_cancelled_tell"]


def test_each_task_is_registered_under_its_old_name_from_its_new_module():
    for name in NAMES:
        assert task_module(f"games.tournaments.tasks.{name}") == "tournaments.tasks"
        assert _registered(f"games.tournaments.tasks.{name}").run is getattr(tasks, name).run
    assert settings.CELERY_BEAT_SCHEDULE["tournaments"]["task"] == "games.tournaments.tasks.tournaments_sweep"

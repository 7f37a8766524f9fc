"""Celery is configured so that no task is lost or run twice by the broker's doing (issue 5)."""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

from celery.schedules import crontab
from django.conf import settings

from config.celery import app
from games import tasks

ROOT = pathlib.Path(__file__).resolve().parents[2]
TASKS = ["bot_move", "game_effects", "notification_email_send", "seat_deadline_expire", "deadlines_sweep",
         "deadline_reminders", "effects_sweep", "digests_send"]


def test_tasks_are_acknowledged_late_and_redelivered_when_their_worker_dies():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    for name in TASKS:
        task = getattr(tasks, name)
        assert task.acks_late and task.reject_on_worker_lost, name


def test_the_time_limit_stays_below_the_visibility_timeout():
    visibility = app.conf.broker_transport_options["visibility_timeout"]
    assert app.conf.task_soft_time_limit < app.conf.task_time_limit < visibility
    assert visibility == settings.CELERY_BROKER_VISIBILITY_TIMEOUT


def test_beat_runs_every_periodic_task_and_sweeps_deadlines_within_seconds():
    schedule = app.conf.beat_schedule
    registered = set(app.tasks)
    assert {entry["task"] for entry in schedule.values()} == {
        "games.tasks.deadlines_sweep", "games.tasks.deadline_reminders", "games.tasks.effects_sweep",
        "games.tasks.digests_send"}
    assert all(entry["task"] in registered for entry in schedule.values())
    assert schedule["deadlines"]["schedule"] <= 15  # live Toppo clocks are 15 seconds and more
    assert isinstance(schedule["daily-digest"]["schedule"], crontab)


def _settings_in_a_fresh_process(**env):
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    base.update(env)
    code = ("import django; django.setup(); from config.celery import app; "
            "print(app.conf.task_always_eager, app.conf.broker_url)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_without_redis_url_tasks_run_in_process_and_with_it_go_to_redis():
    assert _settings_in_a_fresh_process(DJANGO_SETTINGS_MODULE="config.settings") == ["True", "memory://"]
    assert _settings_in_a_fresh_process(DJANGO_SETTINGS_MODULE="config.settings",
                                        REDIS_URL="redis://127.0.0.1:6379/3") == ["False", "redis://127.0.0.1:6379/3"]


def test_a_time_limit_not_below_the_visibility_timeout_stops_the_start():
    base = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    base.update(CELERY_VISIBILITY_TIMEOUT="60", CELERY_TASK_TIME_LIMIT="60")
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT, env=base, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "CELERY_TASK_TIME_LIMIT must stay below CELERY_VISIBILITY_TIMEOUT" in done.stderr

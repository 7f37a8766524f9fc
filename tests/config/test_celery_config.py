"""Celery is configured so that no task is lost or run twice by the broker's doing (decision 5)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest
from celery.schedules import crontab
from django.conf import settings

from accounts import tasks as account_tasks
from config.celery import app
from feed import tasks as feed_tasks
from games import tasks
from notifications import tasks as notification_tasks

ROOT = pathlib.Path(__file__).resolve().parents[2]
TASKS = [
    "bot_move",
    "bots_schedule",
    "game_effects",
    "seat_deadline_expire",
    "deadlines_sweep",
    "effects_sweep",
    "idempotency_purge",
]
FEED_TASKS = ["events_purge", "table_changed_announce"]
ACCOUNT_TASKS = ["password_reset_mail", "password_changed_mail", "limit_hits_purge"]
NOTIFICATION_TASKS = ["notification_email_send", "deadline_reminders", "digests_send", "vacation_tell"]


@pytest.fixture(autouse=True)
def as_in_the_notification_tests(celery_eager, site_url):
    """Tasks run in this process and mails name the site, as tests/notifications/conftest.py gives its own tests
    (first of this module's own fixtures, as that folder's were: a later one may change what they set)."""


def test_the_tasks_a_table_waits_for_are_sent_again_when_their_worker_dies():
    resent = {name for name, task in app.tasks.items() if getattr(task, "resend_if_worker_dies", False)}
    assert {
        "games.tasks.bot_move",
        "games.tasks.bots_schedule",
        "games.tasks.game_effects",
        "games.tasks.seat_deadline_expire",
        "games.tasks.chat_message_effects",
    } <= resent
    assert not any("email" in name or "mail" in name for name in resent)  # the outbox sends those, once


def test_tasks_are_acknowledged_late_and_redelivered_when_their_worker_dies():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1
    for module, names in (
        (tasks, TASKS),
        (account_tasks, ACCOUNT_TASKS),
        (notification_tasks, NOTIFICATION_TASKS),
        (feed_tasks, FEED_TASKS),
    ):
        for name in names:
            task = getattr(module, name)
            assert task.acks_late and task.reject_on_worker_lost, name


def test_tasks_that_left_games_keep_their_registered_names():
    """The feed's and the notifications' tasks moved out of games keep the names the broker and beat know: a queue
    in flight across a deploy must still be served (config.celery.MOVED_TASKS finds their modules)."""
    names = {
        "games.tasks.events_purge": feed_tasks.events_purge,
        "games.tasks.table_changed_announce": feed_tasks.table_changed_announce,
        "games.notifications.tasks.notification_email_send": notification_tasks.notification_email_send,
        "games.notifications.tasks.notification_channel_send": notification_tasks.notification_channel_send,
        "games.notifications.tasks.vacation_tell": notification_tasks.vacation_tell,
        "games.notifications.tasks.deadline_reminders": notification_tasks.deadline_reminders,
        "games.notifications.tasks.digests_send": notification_tasks.digests_send,
        "games.notifications.tasks.digest_send": notification_tasks.digest_send,
    }
    for name, task in names.items():
        assert task.name == name
        assert app.tasks[name].run.__module__ == task.run.__module__ in ("feed.tasks", "notifications.tasks")


def test_the_time_limit_stays_below_the_visibility_timeout():
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert app.conf.task_soft_time_limit < app.conf.task_time_limit < visibility
    assert visibility == settings.CELERY_BROKER_VISIBILITY_TIMEOUT


@pytest.mark.django_db  # a starting worker's import runs Django's checks, which ask SQLite's version
def test_beat_runs_every_periodic_task_and_sweeps_deadlines_within_seconds():
    schedule = app.conf.beat_schedule
    app.loader.import_default_modules()  # what a starting worker does: find every app's tasks module
    registered = set(app.tasks)
    assert {entry["task"] for entry in schedule.values()} == {
        "games.tasks.deadlines_sweep",
        "games.notifications.tasks.deadline_reminders",
        "games.tasks.effects_sweep",
        "games.notifications.tasks.digests_send",
        "games.tasks.idempotency_purge",
        "games.tasks.events_purge",
        "accounts.tasks.limit_hits_purge",
        "accounts.tasks.token_uses_record",  # decision 16: no write on a read request
        "config.monitoring.tasks.heartbeat",
        "config.monitoring.tasks.lost_work_sweep",  # a dead worker's work sent again within seconds
        "games.tasks.vacations_end_due",
        "games.tournaments.tasks.tournaments_sweep",
        "games.tasks.pace_profiles_refresh",  # decision 29: pace profiles of those who played in the last hour
        "sandbox.tasks.sandboxes_expire",  # decision 29: sandboxes unused for TOPOS_SANDBOX_DAYS
        "outbound.tasks.outbound_sweep",  # decision 29: push and webhook deliveries due or to retry
    }
    assert all(entry["task"] in registered for entry in schedule.values())
    assert schedule["deadlines"]["schedule"] <= 15  # live Toppo clocks are 15 seconds and more
    # A live table's bot held by a dead worker moves again within 30 s: its silence noticed, then swept.
    assert settings.TOPOS_WORKER_LOST_SECONDS + schedule["lost-work"]["schedule"] <= 20
    assert isinstance(schedule["daily-digest"]["schedule"], crontab)


def _printed_in_a_fresh_process(code: str, **env) -> list[str]:
    """What `code` prints after django.setup() in a new process with `env` (no REDIS_URL/DATABASE_URL unless given)."""
    base = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    base.update(env)
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def _settings_in_a_fresh_process(**env):
    return _printed_in_a_fresh_process(
        "from config.celery import app; print(app.conf.task_always_eager, app.conf.broker_url, "
        "app.conf.broker_transport_options.get('data_folder_in', '-'))",
        **env,
    )


def test_no_setup_runs_tasks_in_process_without_redis_the_broker_is_a_folder(tmp_path):
    folder = tmp_path / "broker"
    assert _settings_in_a_fresh_process(DJANGO_SETTINGS_MODULE="config.settings", TOPOS_BROKER_DIR=str(folder)) == [
        "False",
        "filesystem://",
        str(folder / "queue"),
    ]
    assert (folder / "queue").is_dir() and (folder / "control").is_dir()
    assert _settings_in_a_fresh_process(
        DJANGO_SETTINGS_MODULE="config.settings", REDIS_URL="redis://127.0.0.1:6379/3"
    ) == ["False", "redis://127.0.0.1:6379/3", "-"]


def test_a_time_limit_not_below_the_visibility_timeout_stops_the_start():
    base = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    base.update(CELERY_VISIBILITY_TIMEOUT="60", CELERY_TASK_TIME_LIMIT="60")
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=base, capture_output=True, text=True, timeout=120
    )
    assert done.returncode != 0
    assert "CELERY_TASK_TIME_LIMIT must stay below CELERY_VISIBILITY_TIMEOUT" in done.stderr


def test_a_broker_that_is_down_costs_a_send_one_try_and_the_outbox_keeps_the_work():
    # Nothing listens on this port: the send is refused once, without kombu's retries (max_retries 0),
    # and enqueue reports it instead of raising into the request; the effects sweep sends it later.
    printed = _printed_in_a_fresh_process(
        "import logging; logging.disable(logging.CRITICAL); from config.celery import app, enqueue; "
        "print(app.conf.broker_transport_options['max_retries'], enqueue('games.tasks.game_effects', 1))",
        DJANGO_SETTINGS_MODULE="config.settings",
        REDIS_URL="redis://127.0.0.1:9/0",
    )
    assert printed == ["0", "False"]


def test_threads_sending_a_processs_first_tasks_at_once_each_find_them_registered():
    # A web process's gunicorn threads send their first tasks together (bench/bench_http.py found moves answering
    # 500 with NotRegistered): each must find the task, whichever thread imports the tasks module.  The broker is
    # down, so every send answers False, and none raises.
    printed = _printed_in_a_fresh_process(
        "import logging, threading; logging.disable(logging.CRITICAL); from config.celery import enqueue; "
        "barrier = threading.Barrier(20); answers = []; "
        "names = ['games.tasks.game_effects', 'games.notifications.tasks.notification_email_send', "
        "'accounts.tasks.password_reset_mail', 'games.tournaments.tasks.tournament_settle', "
        "'games.tasks.table_changed_announce']; "  # this and the 2nd: their module moved (config.celery.MOVED_TASKS)
        "send = lambda i: (barrier.wait(), answers.append(repr(enqueue(names[i % 5], 1)))); "
        "threads = [threading.Thread(target=send, args=(i,)) for i in range(20)]; "
        "[t.start() for t in threads]; [t.join() for t in threads]; print(len(answers), sorted(set(answers)))",
        DJANGO_SETTINGS_MODULE="config.settings",
        REDIS_URL="redis://127.0.0.1:9/0",
    )
    assert printed == ["20", "['False']"]

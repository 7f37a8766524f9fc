"""Run the beat schedule in this process with tasks inline: deadlines, reminders, outbox, digest.

For the embedded default (no REDIS_URL, so no `celery beat`): start it beside runserver,
e.g. `python manage.py topos_beat &`.  With Redis use `celery -A config beat` instead.
"""
from __future__ import annotations

import time
from datetime import timedelta

from celery.schedules import schedule as every
from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import close_old_connections

from config.celery import app


def _schedule(entry):
    value = entry["schedule"]
    return value if hasattr(value, "is_due") else every(timedelta(seconds=float(value)), app=app)


class Command(BaseCommand):
    help = "Run the periodic tasks of CELERY_BEAT_SCHEDULE in this process (tasks inline), or once with --once."

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="Run every periodic task once, then stop.")

    def handle(self, *args, once: bool = False, **options):
        app.conf.task_always_eager = True  # this process is the worker
        app.loader.import_default_modules()  # autodiscovery: register every app's tasks
        entries = {name: (entry["task"], _schedule(entry)) for name, entry in settings.CELERY_BEAT_SCHEDULE.items()}
        if once:
            for name, (task, _) in entries.items():
                self._run(name, task)
            return
        started = app.now()
        # Interval tasks run at once and then on their interval; crontab ones at their hour.
        last = {name: (started - sched.run_every if isinstance(sched, every) else started)
                for name, (_, sched) in entries.items()}
        self.stdout.write(f"topos_beat: {len(entries)} periodic tasks, in process; Ctrl-C to stop")
        while True:
            for name, (task, sched) in entries.items():
                due, _ = sched.is_due(last[name])
                if due:
                    last[name] = app.now()
                    self._run(name, task)
            close_old_connections()
            time.sleep(1)

    def _run(self, name: str, task: str) -> None:
        try:
            result = app.tasks[task].apply().get()
        except Exception as exc:  # one failing sweep must not stop the others
            self.stderr.write(f"topos_beat: {name} failed: {exc!r}")
        else:
            if result:
                self.stdout.write(f"topos_beat: {name}: {result}")

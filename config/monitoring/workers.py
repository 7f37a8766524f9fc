"""A dead worker's work is sent again within seconds, on Redis and on the embedded filesystem broker.

Why: the message of a task a worker has taken is gone from the filesystem broker (it deletes the file as the
worker takes it), and sits in Redis's unacknowledged set until the visibility timeout (10 minutes).  So a bot task
lost with its worker kept its seat's claim for minutes (games.services.bots.BOT_TASK_LOST_AFTER) and a live table
stalled, though nothing was lost or applied twice.

How: each worker's main process keeps a row (LiveWorker) listing the tasks marked `resend_if_worker_dies` that it
has taken and not finished (waiting for their countdown, queued for the pool, or running), rewritten by a thread of
its own every TOPOS_WORKER_BEAT_SECONDS, and at once when it takes such a task.  The row says that the process
lives, not that a task is quick: a strong bot thinking for 20 s in the pool is not taken for a dead one, since the
main process goes on writing meanwhile.  The beat's sweep (`dead_workers_work_resend`, every
TOPOS_LOST_WORK_SWEEP_SECONDS) takes a row not rewritten for TOPOS_WORKER_LOST_SECONDS as its worker's death,
deletes it and sends each task it held again.

Only tasks that are harmless twice are marked: a bot move carries its seat's token, a dispatch compares cursors,
a deadline its game version.  So a task sent again whose first copy did run (the worker died after the commit, a
live worker that could not write its row for a while, Redis's own redelivery later) does nothing.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from datetime import datetime, timedelta

from celery import signals
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models.functions import Now
from django.utils import timezone

from .models import LiveWorker

log = logging.getLogger(__name__)

# The task option (`@shared_task(resend_if_worker_dies=True)`) of tasks this sends again.
RESEND_OPTION = "resend_if_worker_dies"
# A request just taken may not be in Celery's own state yet (the signal comes first): kept this long regardless.
_SETTLE_SECONDS = 2.0
# A burst of tasks taken together is written as one row update (at most a few writes a second).
_GATHER_SECONDS = 0.2


def _held_item(request) -> dict:
    eta = request.eta
    return {
        "id": request.id,
        "task": request.name,
        "args": list(request.args or ()),
        "kwargs": dict(request.kwargs or {}),
        "eta": eta.isoformat() if hasattr(eta, "isoformat") else eta,
    }


class WorkerHolding:
    """The work one worker process holds, and the thread that writes it down with the process's sign of life."""

    def __init__(self, name: str):
        self.name = name
        self._lock = threading.Lock()
        self._taken: dict[str, tuple[float, dict]] = {}
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="topos-live-worker", daemon=True)

    def take(self, request) -> None:
        with self._lock:
            self._taken[request.id] = (time.monotonic(), _held_item(request))
        self._wake.set()

    def held(self, unfinished, now: float | None = None) -> list[dict]:
        """What was taken and is not finished: still in `unfinished` (Celery's requests by id), or just taken.
        `now`: time.monotonic() unless given."""
        now = time.monotonic() if now is None else now
        with self._lock:
            for request_id, (taken_at, _) in list(self._taken.items()):
                if request_id not in unfinished and now - taken_at > _SETTLE_SECONDS:
                    del self._taken[request_id]
            return [item for _, item in self._taken.values()]

    def write(self) -> None:
        from celery.worker import state

        try:
            # The time as the row is written (the database's clock): a write that waited for SQLite's lock is not
            # already old when it lands.
            LiveWorker.objects.update_or_create(
                name=self.name, defaults={"beat_at": Now(), "held": self.held(state.requests)}
            )
        except DatabaseError as exc:  # one line every beat while the database is away, not a traceback each time
            log.warning("could not write the sign of life of worker %s: %s", self.name, exc)
            connection.close()  # a fresh connection next time
        # Otherwise the connection stays open for the next write.  A pool process forked meanwhile inherits its
        # socket but never uses or closes it (it sees only its own thread's connections, and exits with _exit).

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """A clean shutdown: the broker gets back what was not finished, so nothing is left to send again."""
        self._stopping.set()
        self._wake.set()
        self._thread.join(10)
        try:
            LiveWorker.objects.filter(name=self.name).delete()
        except DatabaseError:
            log.warning("could not delete the row of worker %s", self.name, exc_info=True)
        finally:
            connection.close()

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()
            self.write()
            if self._wake.wait(settings.TOPOS_WORKER_BEAT_SECONDS):
                time.sleep(_GATHER_SECONDS)
        connection.close()


_holding: WorkerHolding | None = None


@signals.worker_init.connect
def _worker_started(sender=None, **_):
    global _holding
    host = getattr(sender, "hostname", None) or socket.gethostname()
    # The pid and a random part: a worker restarted under the same name is another process and holds nothing yet.
    _holding = WorkerHolding(f"{host} pid {os.getpid()} {secrets.token_hex(4)}")


@signals.worker_ready.connect
def _worker_ready(**_):
    if _holding is not None:
        _holding.start()  # after the pool has forked its first processes


@signals.task_received.connect
def _task_taken(request=None, **_):
    if _holding is not None and getattr(request.task, RESEND_OPTION, False):
        _holding.take(request)


@signals.worker_shutdown.connect
def _worker_stopping(**_):
    if _holding is not None:
        _holding.stop()


def _countdown(eta: str | None, now: datetime) -> float | None:
    if not eta:
        return None
    left = (datetime.fromisoformat(eta) - now).total_seconds()
    return left if left > 0 else None


def dead_workers_work_resend(*, now=None) -> int:
    """Send again the tasks held by every worker silent for TOPOS_WORKER_LOST_SECONDS; how many were sent."""
    from config.celery import enqueue

    now = now or timezone.now()
    silent = LiveWorker.objects.filter(beat_at__lt=now - timedelta(seconds=settings.TOPOS_WORKER_LOST_SECONDS))
    sent = 0
    for row in silent:
        # Whoever deletes the row, still silent, sends its work: two sweeps at once (two beats by mistake) send it
        # once, and a worker that wrote meanwhile keeps its row.  (Not `beat_at=row.beat_at`: SQLite keeps the
        # database's time with 3 decimals, which equals no Python time written with 6.)
        deleted, _ = silent.filter(pk=row.pk).delete()
        if not deleted:
            continue
        held = len(row.held)
        log.warning("worker %s silent since %s: sending again the %d tasks it held", row.name, row.beat_at, held)
        for item in row.held:
            countdown = _countdown(item.get("eta"), now)
            sent += enqueue(item["task"], *item["args"], kwargs=item.get("kwargs") or None, countdown=countdown)
    return sent

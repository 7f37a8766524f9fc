"""Signs of life of the background roles, stamped in the database that web, worker and beat share.

Beat sends `config.monitoring.tasks.heartbeat` every TOPOS_HEARTBEAT_SECONDS (and once as it starts).  Beat
stamps "beat" when the broker has taken the message; a worker stamps "worker" when it runs it.  So a
stale "beat" means beat is down (or cannot reach the broker); a stale "worker" with a fresh "beat"
means no worker takes tasks, or the queue is so far behind that the heartbeat waits in it.  The same
on Redis and on the embedded filesystem broker, however many machines run workers.
"""

from __future__ import annotations

import logging

from celery import signals
from django.db import DatabaseError, close_old_connections, connection
from django.utils import timezone

from .models import Heartbeat

log = logging.getLogger(__name__)

HEARTBEAT_TASK = "config.monitoring.tasks.heartbeat"
ROLES = ("worker", "beat")


def heartbeat_stamp(name: str, at=None) -> None:
    Heartbeat.objects.update_or_create(name=name, defaults={"at": at or timezone.now()})


def heartbeat_ages(now=None) -> dict[str, float | None]:
    """Seconds since each role's last stamp (None: never stamped)."""
    now = now or timezone.now()
    stamps = dict(Heartbeat.objects.filter(name__in=ROLES).values_list("name", "at"))
    return {role: (now - stamps[role]).total_seconds() if role in stamps else None for role in ROLES}


def _outside_requests(write) -> None:
    """Beat is a long-lived process with no requests: recycle its connection as a request would."""
    fresh = not connection.in_atomic_block  # never drop a connection in the middle of someone's transaction
    if fresh:
        close_old_connections()
    try:
        write()
    except DatabaseError:
        log.exception("could not stamp the beat heartbeat")
    finally:
        if fresh:
            close_old_connections()


@signals.after_task_publish.connect(sender=HEARTBEAT_TASK)
def beat_sent_heartbeat(**_):
    # Only beat publishes the heartbeat: the broker has it, so beat is alive and reaches the broker.
    _outside_requests(lambda: heartbeat_stamp("beat"))


@signals.beat_init.connect
@signals.beat_embedded_init.connect
def beat_started(sender=None, **_):
    # A first heartbeat at once, not one period after start, so /healthz turns healthy quickly after a deploy.
    from config.celery import app

    try:
        app.send_task(HEARTBEAT_TASK, expires=60)
    except Exception:
        log.exception("could not send the first heartbeat")

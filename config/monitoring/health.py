"""What /healthz checks: the database, the broker, a worker's heartbeat and beat's last run.

Each check answers "ok" or a short reason a person can act on.  Nothing secret goes into a reason:
no address, user name or driver message, only what failed (an exception's class at most).
"""

from __future__ import annotations

from django.conf import settings
from django.db import DatabaseError, connection

from .heartbeats import heartbeat_ages

OK = "ok"


def database_check() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return f"cannot query the database ({type(exc).__name__})"
    return OK


def broker_check() -> str:
    from config.celery import app

    try:
        # A fresh connection each time: Redis is pinged (kombu's channel does it), with the 1 s connect timeout
        # of the transport options; the filesystem broker checks that its folders are there.
        with app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception as exc:
        return f"cannot reach the broker ({type(exc).__name__})"
    return OK


def _age_check(role: str, age: float | None, limit: int) -> str:
    what = {"worker": "no worker ran a heartbeat", "beat": "beat has not sent a heartbeat"}[role]
    if age is None:
        return f"{what} yet"
    if age > limit:
        return f"{what} for {int(age)} s (limit {limit} s)"
    return OK


def background_checks() -> dict[str, str]:
    limit = settings.TOPOS_HEALTH_STALE_SECONDS
    try:
        ages = heartbeat_ages()
    except DatabaseError as exc:
        unknown = f"unknown: cannot read the heartbeats ({type(exc).__name__})"
        return {"worker": unknown, "beat": unknown}
    return {role: _age_check(role, age, limit) for role, age in ages.items()}


def health_report(*, background: bool = True) -> dict[str, str]:
    """Every check's answer; `background=False` leaves out worker and beat (what one web process needs)."""
    checks = {"database": database_check(), "broker": broker_check()}
    if background:
        checks.update(
            background_checks()
            if checks["database"] == OK
            else {"worker": "unknown: the database is down", "beat": "unknown: the database is down"}
        )
    return checks

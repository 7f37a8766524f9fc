"""Structured logs: one line per request and per task, as JSON when LOG_FORMAT=json.

Request lines (logger `topos.request`): method, path (never the query string), status, duration,
the user id when the view looked at the user, and the game id when the URL names a table.  Task
lines (logger `topos.task`): name, id, duration, outcome and the game id from the task's arguments
when it takes one.  `JsonFormatter` writes every record of the process as one JSON object a line,
with these fields at the top level.
"""

from __future__ import annotations

import inspect
import json
import logging
import time
from datetime import UTC, datetime

from celery import signals
from django.conf import settings
from django.utils.functional import empty

request_log = logging.getLogger("topos.request")
task_log = logging.getLogger("topos.task")

# The plain attributes of every LogRecord; anything else on a record came in through `extra=`.
_RECORD_ATTRS = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, the record's extra fields, the exception if any."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update((key, value) for key, value in vars(record).items() if key not in _RECORD_ATTRS)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str, ensure_ascii=False)


# --- requests ------------------------------------------------------------------------------------


def _user_id(request) -> int | None:
    """The user's id if the request already knows who she is; never a database query only to log it."""
    user = request.__dict__.get("user")
    if user is None or getattr(user, "_wrapped", None) is empty:
        return None
    return user.pk if user.is_authenticated else None


def _game_id(request) -> int | None:
    match = getattr(request, "resolver_match", None)
    if match is None or "tables/<int:pk>" not in (match.route or ""):
        return None
    return match.kwargs.get("pk")


class RequestLogMiddleware:
    """Outermost middleware: times the whole request, whatever answered it (a view, WhiteNoise, an error)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        duration_ms = round((time.perf_counter() - started) * 1000, 1)
        fields = {
            "event": "request",
            "method": request.method,
            "path": request.path,
            "status": response.status_code,
            "duration_ms": duration_ms,
            "user_id": _user_id(request),
            "game_id": _game_id(request),
        }
        # A monitor asks /healthz every few seconds: a healthy answer is not worth a line at INFO.
        level = logging.DEBUG if request.path.startswith("/healthz") and response.status_code == 200 else logging.INFO
        request_log.log(
            level, "%s %s %s %.1f ms", request.method, request.path, response.status_code, duration_ms, extra=fields
        )
        return response


# --- tasks ---------------------------------------------------------------------------------------

_started: dict[str, float] = {}


def _task_game_id(task, args, kwargs) -> int | None:
    """The game a task is about, when its first parameter is `game_id` (games.tasks)."""
    if kwargs and "game_id" in kwargs:
        return kwargs["game_id"]
    try:
        first = next(iter(inspect.signature(task.run).parameters), None)
    except (TypeError, ValueError):
        return None
    return args[0] if first == "game_id" and args else None


@signals.task_prerun.connect
def _task_started(task_id=None, **_):
    _started[task_id] = time.perf_counter()


@signals.task_postrun.connect
def _task_finished(task_id=None, task=None, args=None, kwargs=None, state=None, **_):
    started = _started.pop(task_id, None)
    duration_ms = round((time.perf_counter() - started) * 1000, 1) if started is not None else None
    outcome = (state or "unknown").lower()
    fields = {
        "event": "task",
        "task": task.name,
        "task_id": task_id,
        "duration_ms": duration_ms,
        "outcome": outcome,
        "game_id": _task_game_id(task, args or (), kwargs or {}),
    }
    # As text, Celery's own "succeeded in" line says the same: this one matters in JSON, where it is the record.
    level = (
        logging.WARNING if outcome != "success" else logging.INFO if settings.LOG_FORMAT == "json" else logging.DEBUG
    )
    task_log.log(level, "task %s %s %s ms", task.name, outcome, duration_ms, extra=fields)

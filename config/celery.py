"""The Celery application.

With REDIS_URL set, Redis is the broker; without it, kombu's filesystem transport in
TOPOS_BROKER_DIR (config/settings.py).  Either way a real worker and beat run the tasks,
never the web process: `config/scripts/run.sh` starts them beside the site.
"""

import importlib
import logging
import os
import threading
from collections import deque

from celery import Celery, signals
from kombu.transport import TRANSPORT_ALIASES

from config.redis_clients import outage_log

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# filesystem:// is kombu's transport with whole-message writes (config/filesystem_broker.py).
TRANSPORT_ALIASES["filesystem"] = "config.filesystem_broker:Transport"

app = Celery("topos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

log = logging.getLogger(__name__)


def enqueue(task_name: str, *args, kwargs: dict | None = None, countdown: float | None = None) -> bool:
    """Send the task registered as `task_name` once, without kombu's retries; if the broker does not take it, log
    and return False.

    Services name the task instead of importing its module, so tasks (which call services) and services (which
    ask for tasks) never import each other (decision 15).  Called after commit only, so the database already holds
    what the beat sweeps need to send it later: a broker that is down must not hold up the request that wrote.
    """
    task = _registered(task_name)
    options: dict = {"retry": False}
    if countdown:
        options["countdown"] = countdown
    try:
        _send(task, args, kwargs, options)
        return True
    except Exception:
        # Not a traceback per request while the broker is down (config.redis_clients.outage_log).
        outage_log(
            log,
            "broker-send",
            "could not send %s%r; the beat sweep will pick it up",
            task_name,
            args,
            level=logging.ERROR,
        )
        return False


# Tests' eager mode (tests/conftest.py celery_eager) runs a task where it is sent.  A task sent by a task runs after
# the one that sent it, as on a worker, not inside it: else a table of bots playing to its end nests a bot's turn
# inside the task of the turn before, once a decision, until Python's recursion limit stops it.
_eager = threading.local()


def _send(task, args, kwargs, options) -> None:
    if not app.conf.task_always_eager:
        task.apply_async(args, kwargs, **options)
        return
    pending = getattr(_eager, "pending", None)
    if pending is not None:
        pending.append((task, args, kwargs, options))
        return
    _eager.pending = deque([(task, args, kwargs, options)])
    try:
        while _eager.pending:
            sent, sent_args, sent_kwargs, sent_options = _eager.pending.popleft()
            sent.apply_async(sent_args, sent_kwargs, **sent_options)
    finally:
        _eager.pending = None


# Tasks whose module moved keep the names they were registered under (the broker's queued messages and the beat
# schedule name them, and a queue in flight across a deploy must still be served): the module that holds each
# now, by its whole name or by its old module.
MOVED_TASKS = {
    "games.tasks.chat_message_effects": "chat.tasks",
    "games.tournaments.tasks": "tournaments.tasks",
    "games.notifications.tasks": "notifications.tasks",
    "games.tasks.table_changed_announce": "feed.tasks",
    "games.tasks.events_purge": "feed.tasks",
}


def task_module(task_name: str) -> str:
    """The module that registers `task_name`: its own, or where it moved (MOVED_TASKS)."""
    module = task_name.rpartition(".")[0]
    return MOVED_TASKS.get(task_name) or MOVED_TASKS.get(module) or module


def _registered(task_name: str):
    """The task registered as `task_name`, importing its own module the first time a process sends it.

    The module is imported by name rather than by Celery's discovery: Python makes a thread that asks for a module
    another thread is still executing wait until it is complete, so the gunicorn threads of a web process that all
    send their first task at once each find it registered (the discovery returned early in all but the first).
    A name nobody registers is a bug: it fails here, not in the log.
    """
    if task_name not in app.tasks:
        importlib.import_module(task_module(task_name))
    return app.tasks[task_name]


# LOG_FORMAT=json (config/settings.py): the worker and beat log through Django's LOGGING, one JSON object a line,
# instead of Celery's own format.  Decided from the environment here because beat sets its logging up before Django.
if (os.environ.get("LOG_FORMAT") or "").strip().lower() == "json":

    @signals.setup_logging.connect
    def _json_logging(**_):
        import logging.config

        from django.conf import settings

        logging.config.dictConfig(settings.LOGGING)


@signals.task_prerun.connect
def _database_connection_as_for_a_request(task=None, **_):
    """Before each task, what Django does before each request: drop the connection if it failed or outlived
    DATABASE_CONN_MAX_AGE (and health-check it before reuse).  Celery itself closes it after every task unless
    CELERY_DB_REUSE_MAX is set (config.production sets it), which alone would keep a dead connection for a while."""
    if getattr(task.request, "is_eager", False):
        return  # a test's tasks run inside its transaction, on its connection
    from django.db import close_old_connections

    close_old_connections()

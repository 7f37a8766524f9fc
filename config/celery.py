"""The Celery application.

With REDIS_URL set, Redis is the broker; without it, kombu's filesystem transport in
TOPOS_BROKER_DIR (config/settings.py).  Either way a real worker and beat run the tasks,
never the web process: `config/scripts/run.sh` starts them beside the site.
"""
import os

from celery import Celery, signals
from kombu.transport import TRANSPORT_ALIASES

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# filesystem:// is kombu's transport with whole-message writes (config/filesystem_broker.py).
TRANSPORT_ALIASES["filesystem"] = "config.filesystem_broker:Transport"

app = Celery("topos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


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

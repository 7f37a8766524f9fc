"""Gunicorn's settings for Topos (config/scripts/serve.sh passes `-c config/gunicorn.conf.py`).

Every value can be changed from the environment; the defaults suit one machine behind a proxy that ends TLS.
"""

import multiprocessing
import os
import sys

# TOPOS_ASGI=1: the ASGI site under uvicorn workers (config/uvicorn_worker.py), where an open event stream
# (feed) holds no thread, so table pages follow their table's stream instead of polling.  Otherwise the WSGI
# site on threads, where config.production turns the streams off (TOPOS_WSGI_STREAMS) so that open pages cannot
# take every thread: they poll, as before.
_asgi = (os.environ.get("TOPOS_ASGI") or "").strip().lower() in ("1", "true", "yes")
_embedded = (os.environ.get("TOPOS_EMBEDDED") or "").strip().lower() in ("1", "true", "yes", "on")
if _asgi and not _embedded:
    # Django under ASGI runs each request's database work on a thread of that request's own, so a connection kept
    # for reuse would be left behind with the thread: one connection per request, whatever .env says (Django's
    # advice for ASGI; put PgBouncer in front to make them cheap).  run.sh's site runs Django on long-lived threads
    # instead (config/wsgi_threads.py), which keep theirs.
    os.environ["DATABASE_CONN_MAX_AGE"] = "0"
wsgi_app = "config.asgi:application" if _asgi else "config.wsgi:application"
bind = [os.environ.get("TOPOS_BIND") or "127.0.0.1:8000"]
# Processes: the usual 2 x cores + 1 (WEB_CONCURRENCY overrides), each with a few threads so that a request waiting
# on PostgreSQL or on a slow client does not hold a whole process; each thread keeps its own database connection.
workers = int(os.environ.get("WEB_CONCURRENCY") or 2 * multiprocessing.cpu_count() + 1)
threads = int(
    os.environ.get("WEB_THREADS") or 4
)  # WSGI only; uvicorn runs Django's synchronous code on its own threads
worker_class = "config.uvicorn_worker.ToposUvicornWorker" if _asgi else "gthread"
timeout = int(os.environ.get("WEB_TIMEOUT") or 30)  # a request still running after this is killed with its process
graceful_timeout = 30  # on TERM, requests under way get this long to finish
keepalive = 5
# A fresh process now and then, staggered, so that a slow leak never grows without bound (WEB_MAX_REQUESTS; 0: never).
max_requests = int(os.environ.get("WEB_MAX_REQUESTS") or 2000)
max_requests_jitter = max_requests // 10
preload_app = True  # the site is imported once, before forking: a broken setting stops the start with its message
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None  # heartbeat files off a possibly slow disk
control_socket_disable = True  # gunicorn's control socket is one per user by default: several sites would collide
# The proxy's addresses, trusted for X-Forwarded-* ("*" in a container network the proxy alone can reach).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1"
accesslog = None  # the site logs one line per request itself (config.monitoring.logs), as text or JSON
errorlog = "-"
loglevel = (os.environ.get("LOG_LEVEL") or "info").lower()


def on_starting(server):
    """Refuse to serve pages that would all be 500s: manifest storage without collectstatic's manifest."""
    from django.conf import settings

    storage = settings.STORAGES.get("staticfiles", {}).get("BACKEND", "")
    manifest = os.path.join(settings.STATIC_ROOT, "staticfiles.json")
    if "Manifest" in storage and not os.path.exists(manifest):
        sys.exit(
            f"No static files collected in {settings.STATIC_ROOT}: run `python manage.py collectstatic "
            "--noinput` first (config/scripts/serve.sh does), or every page would be a 500."
        )


if (os.environ.get("LOG_FORMAT") or "").strip().lower() == "json":
    # Gunicorn's own lines (start, stop, a killed request) as JSON too, like everything else the site logs.
    logconfig_dict = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": "config.monitoring.logs.JsonFormatter"}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
        "loggers": {"gunicorn.error": {"handlers": ["console"], "level": loglevel.upper(), "propagate": False}},
    }

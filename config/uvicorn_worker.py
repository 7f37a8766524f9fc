"""Gunicorn's worker for the ASGI site (config/gunicorn.conf.py): uvicorn in each gunicorn process.

An open event stream (feed) is a coroutine, not a thread, so a process serves any number of them
next to its requests.  On TERM, uvicorn lets requests under way finish but would wait for open streams
for ever: after STREAMS_GRACE seconds it closes them (clients reconnect, with Last-Event-ID, to a
process still running).  Django has no ASGI lifespan events, so uvicorn does not ask for them.
"""

from uvicorn_worker import UvicornWorker

STREAMS_GRACE = 5


class ToposUvicornWorker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "lifespan": "off", "timeout_graceful_shutdown": STREAMS_GRACE}

"""ASGI entry point: `uvicorn config.asgi:application` (docs/api.md, "Running under uvicorn").

The event streams (feed.asgi) are answered before Django, so an open stream holds no thread;
every other request goes to Django as under WSGI.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()  # sets Django up: the import below needs the apps loaded

import asyncio  # noqa: E402
import weakref  # noqa: E402

from django.conf import settings  # noqa: E402

from feed.asgi import streams_in_front_of  # noqa: E402


def bounded(app, limit: int):
    """`app` with at most `limit` HTTP requests inside it at once (settings.TOPOS_ASGI_REQUESTS); the others wait here,
    in the order they came, as coroutines: a burst queues instead of becoming one thread and one database connection
    a request."""
    gates: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # one per event loop (a server has one; tests many)

    async def application(scope, receive, send):
        if scope["type"] != "http":
            return await app(scope, receive, send)
        loop = asyncio.get_running_loop()
        gate = gates.get(loop) or gates.setdefault(loop, asyncio.Semaphore(limit))
        async with gate:
            return await app(scope, receive, send)

    return application


if settings.TOPOS_EMBEDDED:
    # run.sh's site: Django's WSGI handler on TOPOS_ASGI_REQUESTS long-lived threads, each keeping its database
    # connection (config/wsgi_threads.py; decision 28: a third less CPU a move than Django's ASGI handler).
    from django.core.wsgi import get_wsgi_application  # noqa: E402

    from config.wsgi_threads import WsgiOnThreads  # noqa: E402

    django_application = WsgiOnThreads(get_wsgi_application(), settings.TOPOS_ASGI_REQUESTS)

application = streams_in_front_of(bounded(django_application, settings.TOPOS_ASGI_REQUESTS))

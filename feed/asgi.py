"""The streams served straight from ASGI, in front of Django (config/asgi.py).

Why not an async Django view: Django runs its (synchronous) middleware for a request on a thread
kept for that request until its response ends, so every open stream would hold a thread after
all.  Here a stream is one coroutine: the few database reads (authentication, visibility, the
events) run on the event loop's shared thread pool and the connection then waits on Redis or a
timer.  Every other path goes to Django unchanged.

The answers are the same as the WSGI views' (feed.api): the same authentication (a
session cookie or `Authorization: Token`), the same 400/401/404 bodies, the same stream.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from importlib import import_module

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from rest_framework import exceptions

from accounts.authentication import ApiTokenAuthentication
from config import request_limits
from games.errors import ServiceError

from . import opening
from .stream import HEADERS, run_async

log = logging.getLogger(__name__)
USER_STREAM = re.compile(r"^/api/events/stream/$")
TABLE_STREAM = re.compile(r"^/api/tables/(\d+)/stream/$")


class Refusal(Exception):
    def __init__(self, status: int, body: dict, headers: dict | None = None):
        self.status, self.body, self.headers = status, body, headers or {}


def _user(request):
    """(The token's owner, the token), else (the session's user, None) (AnonymousUser if neither)."""
    try:
        found = ApiTokenAuthentication().authenticate(request)
    except exceptions.AuthenticationFailed as exc:
        raise Refusal(
            401, {"error": "authentication_failed", "detail": str(exc.detail)}, {"WWW-Authenticate": "Token"}
        ) from None
    if found is not None:
        return found
    engine = import_module(settings.SESSION_ENGINE)
    request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    return auth.get_user(request), None


def _open(scope, kind: str, game_id: int | None):
    """Everything before the stream, on a pool thread: checks, authentication, the feed; or a Refusal."""
    request = ASGIRequest(scope, io.BytesIO())
    try:
        try:
            request.get_host()
        except DisallowedHost:
            raise Refusal(400, {"error": "bad_request", "detail": "Bad Request (400)"}) from None
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            raise Refusal(301, {}, {"Location": "https://" + request.get_host() + request.get_full_path()})
        try:  # what Django's middleware refuses (config.request_limits), refused here too: no middleware runs
            request_limits.check_request_characters(request)
        except request_limits.JsonRefused as refused:
            raise Refusal(400, {"error": refused.code, "detail": refused.message}) from None
        user, token = _user(request)
        if kind == "user":
            if not user.is_authenticated:
                raise Refusal(
                    401,
                    {"error": "not_authenticated", "detail": _("Authentication credentials were not provided.")},
                    {"WWW-Authenticate": "Token"},
                )
            return opening.user_feed(user, request.GET, request.headers.get("Last-Event-ID"), token)
        return opening.table_feed(
            user if user.is_authenticated else AnonymousUser(), game_id, request.GET.get("code", ""), token
        )
    except ServiceError as exc:
        raise Refusal(exc.status_code, {"error": exc.code, "detail": exc.message}) from None
    finally:
        connection.close()  # the pool thread keeps no connection for a request it no longer serves
        # nor the language and zone a token's owner brought (accounts.authentication activates hers)
        translation.deactivate()
        timezone.deactivate()


async def _answer(send, refusal: Refusal) -> None:
    body = json.dumps(refusal.body).encode() if refusal.body else b""
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"private, no-store")]
    headers += [(k.lower().encode(), v.encode()) for k, v in refusal.headers.items()]
    await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def _until_disconnect(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def serve_stream(scope, receive, send, kind: str, game_id: int | None = None) -> None:
    loop = asyncio.get_running_loop()
    try:
        feed = await loop.run_in_executor(None, _open, scope, kind, game_id)
    except Refusal as refusal:
        await _answer(send, refusal)
        return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()],
        }
    )

    async def chunk(data: bytes) -> None:
        await send({"type": "http.response.body", "body": data, "more_body": True})

    streaming = asyncio.create_task(run_async(feed, chunk))
    leaving = asyncio.create_task(_until_disconnect(receive))
    done, pending = await asyncio.wait({streaming, leaving}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    if streaming in done:
        if streaming.exception() is not None:
            log.error("event stream failed", exc_info=streaming.exception())
        try:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except Exception:
            pass  # the client left meanwhile


def streams_in_front_of(django_app):
    """An ASGI app: the two stream paths here (GET), everything else to `django_app`."""

    async def application(scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "GET":
            path = scope["path"]
            if USER_STREAM.match(path):
                return await serve_stream(scope, receive, send, "user")
            table = TABLE_STREAM.match(path)
            if table:
                return await serve_stream(scope, receive, send, "table", int(table.group(1)))
        return await django_app(scope, receive, send)

    return application

"""`Idempotency-Key`: a retried request gets the first answer and applies nothing twice.

The record of the first answer is written in the same transaction as the write it
answers, after the same row lock, so two concurrent retries cannot both apply.  A 429
(a limit ran out) is not recorded: the same request may be retried once the limit allows.
Records are kept TOPOS_IDEMPOTENCY_RETENTION_HOURS (24 h), then purged by beat.
"""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.response import Response

from ..errors import BadRequest, ServiceError
from ..models import IdempotentRequest
from .errors import error_response

HEADER = "Idempotency-Key"


def _fingerprint(request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str) if request.data is not None else ""
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def idempotent(request, lock, handler) -> Response:
    """Run `handler()` once per (user, key); `lock()` takes the row lock that serialises retries."""
    key = request.headers.get(HEADER)
    if key is None:
        try:
            return handler()
        except ServiceError as exc:
            return error_response(exc)
    key = key.strip()
    if not key or len(key) > 200:
        return error_response(BadRequest(_("An Idempotency-Key is 1 to 200 characters.")))
    fingerprint = _fingerprint(request)
    try:
        with transaction.atomic():
            lock()
            earlier = IdempotentRequest.objects.filter(user=request.user, key=key).first()
            if earlier is not None:
                if earlier.fingerprint != fingerprint:
                    return Response(
                        {
                            "error": "idempotency_key_reused",
                            "detail": _("This Idempotency-Key was used for a different request; use a new key."),
                        },
                        status=422,
                    )
                replay = Response(earlier.body, status=earlier.status_code)
                replay["Idempotent-Replayed"] = "true"
                return replay
            try:
                with transaction.atomic():
                    response = handler()
            except ServiceError as exc:
                response = error_response(exc)
            if response.status_code == 429:
                return response
            IdempotentRequest.objects.create(
                user=request.user,
                key=key,
                fingerprint=fingerprint,
                status_code=response.status_code,
                body=response.data,
            )
            return response
    except ServiceError as exc:  # from lock(): e.g. the game does not exist
        return error_response(exc)


def idempotency_records_purge(*, now=None) -> int:
    """Forget the answers older than the retention; a key used again after that is a new request."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.TOPOS_IDEMPOTENCY_RETENTION_HOURS)
    return IdempotentRequest.objects.filter(created_at__lt=cutoff).delete()[0]

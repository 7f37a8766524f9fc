"""What the endpoints of one's own account share (/api/me/…, /api/notifications/…): the error shape in the
schema and 400 from a Django form's errors.

Her language: a session's comes from accounts.personal.PersonalSettingsMiddleware, a token's from
accounts.authentication.ApiTokenAuthentication, for every endpoint alike.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework.response import Response

from .parsers import LimitedJSONParser
from .responses import error

SIGNED_OUT = {401: error(401, "No token or session, or a token unknown, revoked or expired.")}
# Writes under a session also need its CSRF token (DRF's SessionAuthentication).
SIGNED_OUT_WRITE = {**SIGNED_OUT, 403: error(403, "A session without its CSRF token.")}
# The shorter words of her own lists (mutes, blocks), which the schema has always given them.
NOT_LOGGED_IN = error(401, "Not logged in.")


# Bodies as JSON only (the browser has its own forms).  DRF reads an empty form field of an optional field as
# "not given", so `time_zone=` in a form would quietly change nothing instead of the 400 the schema promises.
BODY_PARSERS = [LimitedJSONParser]


def form_refused(form, detail: str | None = None) -> Response:
    """400 in the API's shape for a Django form that did not validate (the browser's own validation)."""
    fields = {name: [str(message) for message in messages] for name, messages in form.errors.items()}
    return Response(
        {"error": "invalid", "detail": detail or _("Some fields are not valid."), "fields": fields}, status=400
    )


def bad_body() -> Response:
    return Response(
        {"error": "invalid", "detail": _("Send a JSON object with the fields this endpoint takes.")}, status=400
    )

"""One error shape for the whole API: {"error": code, "detail": message, ...}."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import status
from rest_framework.exceptions import Throttled
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from ..errors import ServiceError, TooManyRequests


def error_response(exc: ServiceError) -> Response:
    body = {"error": exc.code, "detail": exc.message}
    body.update(exc.extra)
    response = Response(body, status=exc.status_code)
    if isinstance(exc, TooManyRequests):
        response["Retry-After"] = str(exc.retry_after)
    return response


def throttled_response(exc: Throttled) -> Response:
    wait = int(exc.wait or 1)
    detail = ngettext(
        "Too many requests: slow down and try again in %(n)d second.",
        "Too many requests: slow down and try again in %(n)d seconds.",
        wait,
    ) % {"n": wait}
    return Response(
        {"error": "throttled", "detail": detail, "retry_after": wait}, status=429, headers={"Retry-After": str(wait)}
    )


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return error_response(exc)
    if isinstance(exc, Throttled):
        return throttled_response(exc)
    if isinstance(exc, RecursionError):
        # The request limits (config.request_limits) keep deep JSON out; should any slip through, it is still
        # the client's malformed input, not a server error.
        return Response({"error": "too_deep", "detail": _("The request is nested too deeply to be read.")}, status=400)
    response = drf_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "error" not in response.data:
        detail = response.data.get("detail")
        code = getattr(detail, "code", None) or ("invalid" if response.status_code == 400 else "error")
        if detail is None:  # field errors from a serializer
            response.data = {"error": "invalid", "detail": _("Some fields are not valid."), "fields": response.data}
        else:
            response.data = {"error": str(code), "detail": str(detail)}
    elif response is not None and isinstance(response.data, list):
        response.data = {"error": "invalid", "detail": " ".join(map(str, response.data))}
    if response is None:
        return None
    if response.status_code == status.HTTP_405_METHOD_NOT_ALLOWED:
        response.data["error"] = "method_not_allowed"
    return response

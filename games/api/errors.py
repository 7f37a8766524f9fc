"""One error shape for the whole API: {"error": code, "detail": message, ...}."""
from django.utils.translation import gettext as _
from rest_framework import status
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


def exception_handler(exc, context):
    if isinstance(exc, ServiceError):
        return error_response(exc)
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

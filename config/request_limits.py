"""Limits on what a request may send: the size of any body, and how deeply JSON may nest.

Python's json module parses nested arrays by recursion, so a 3 KB body of 1,500 brackets raised
RecursionError (a 500) wherever JSON was read.  Every body is measured here before any view runs
(`RequestLimitsMiddleware`), and JSON carried inside a form field (the table page's move form, an
API form post) goes through `loads`, which applies the same limits.

Both refusals are 400, with `error` saying which limit (`too_large`, `too_deep`): a client that sent
too much must change its request, like any other malformed one (issue 12 asks for 400 for both).
"""

from __future__ import annotations

import json
import re
from itertools import accumulate

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

# A JSON string, escapes included; its content is not structure, whatever brackets it holds.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # unrolled: no alternation per character
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_JSON_TYPE = re.compile(r"^application/([\w.+-]+\+)?json$", re.IGNORECASE)


class JsonRefused(ValueError):
    """JSON that exceeds a limit; `code` names which, `message` is for the person who sent it."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def max_body_bytes() -> int:
    return settings.TOPOS_MAX_BODY_BYTES


def max_json_depth() -> int:
    return settings.TOPOS_JSON_MAX_DEPTH


def too_large() -> JsonRefused:
    kib = max(1, max_body_bytes() // 1024)
    return JsonRefused("too_large", _("The request is too large: at most %(kib)d KiB may be sent.") % {"kib": kib})


def too_deep() -> JsonRefused:
    return JsonRefused(
        "too_deep",
        _("The JSON is nested too deeply: at most %(depth)d levels of arrays and objects are accepted.")
        % {"depth": max_json_depth()},
    )


def nesting_depth(text: bytes | str) -> int:
    """How deeply arrays and objects nest in `text`, counted without parsing it (so without recursion).

    Exact for valid JSON and for any valid prefix of it, which is all a parser reads before it fails.
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    brackets = _STRING.sub(b"", raw).translate(None, _NOT_BRACKETS)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def check(text: bytes | str) -> None:
    """Raise JsonRefused if `text` is too large or nests too deeply."""
    if len(text) > max_body_bytes():
        raise too_large()
    opening = ("[", "{") if isinstance(text, str) else (b"[", b"{")
    # Fewer opening brackets than the limit cannot nest beyond it: most bodies are never scanned.
    if sum(map(text.count, opening)) > max_json_depth() and nesting_depth(text) > max_json_depth():
        raise too_deep()


def loads(text: bytes | str, **options):
    """json.loads within the limits: JsonRefused (a ValueError) beyond them, ValueError if malformed."""
    check(text)
    return json.loads(text, **options)


def _is_json(request) -> bool:
    return bool(_JSON_TYPE.match(request.content_type or ""))


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def refusal_response(request, refused: JsonRefused):
    if _is_json(request) or request.path.startswith("/api/"):
        return JsonResponse({"error": refused.code, "detail": refused.message}, status=400)
    return HttpResponse(refused.message, status=400, content_type="text/plain; charset=utf-8")


class RequestLimitsMiddleware:
    """Refuse, before any view, a body over TOPOS_MAX_BODY_BYTES and JSON nested over TOPOS_JSON_MAX_DEPTH."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            if _declared_length(request) > max_body_bytes():
                raise too_large()
            if _is_json(request):
                check(request.body)  # read once; DRF and the views reuse the same bytes
        except JsonRefused as refused:
            return refusal_response(request, refused)
        return self.get_response(request)

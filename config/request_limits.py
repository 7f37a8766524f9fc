"""Limits on what a request may send: the size of any body, and how deeply JSON may nest.

Python's json module parses nested arrays by recursion, so a 3 KB body of 1,500 brackets raised
RecursionError (a 500) wherever JSON was read.  Every body is measured here before any view runs
(`RequestLimitsMiddleware`), and JSON carried inside a form field (the table page's move form, an
API form post) goes through `loads`, which applies the same limits.

Both refusals are 400, with `error` saying which limit (`too_large`, `too_deep`): a client that sent
too much must change its request, like any other malformed one (decision 12 asks for 400 for both).

Characters no database column can hold are refused the same way (`bad_characters`): U+0000, which
PostgreSQL's text and jsonb refuse, and lone surrogates (U+D800-U+DFFF, which only JSON's backslash-u escapes can
carry), which no UTF-8 text can hold.  They are looked for once, here, in everything a request brings: the
path, the query string, the headers (an Idempotency-Key is stored, a User-Agent logged), form bodies in
the middleware, JSON (bodies, and JSON in a form field) in `loads`.  Before, each reached PostgreSQL and
answered 500, even in a refusal's echo stored as an idempotent answer.
"""

from __future__ import annotations

import json
import re
from io import BytesIO
from itertools import accumulate

from django.conf import settings
from django.http import HttpResponse, JsonResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _

# A JSON string, escapes included; its content is not structure, whatever brackets it holds.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # unrolled: no alternation per character
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_JSON_TYPE = re.compile(r"^application/([\w.+-]+\+)?json$", re.IGNORECASE)
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
# What no text column can store: NUL (PostgreSQL) and lone surrogates (not encodable as UTF-8).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


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


def bad_characters() -> JsonRefused:
    return JsonRefused(
        "bad_characters",
        _(
            "The request holds a character that cannot be stored: U+0000 (the NUL character) or a lone surrogate "
            "(U+D800 to U+DFFF). Remove it and send the request again."
        ),
    )


def check_characters(*texts: str) -> None:
    """Raise JsonRefused (`bad_characters`) if any of `texts` holds a character no text column can store."""
    if any(_UNSTORABLE.search(text) for text in texts):
        raise bad_characters()


def check_data(data) -> None:
    """check_characters on every key and string of parsed JSON, walked without recursion."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            check_characters(value)
        elif isinstance(value, dict):
            check_characters(*(key for key in value if isinstance(key, str)))
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)


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
    """json.loads within the limits: JsonRefused (a ValueError) beyond them or holding a character no text
    column can store, ValueError if malformed."""
    check(text)
    data = json.loads(text, **options)
    check_data(data)
    return data


def _is_json(request) -> bool:
    return bool(_JSON_TYPE.match(request.content_type or ""))


def _declared_length(request) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def _form_fields(request):
    """The (name, value) texts of a form body, whatever the method (Django reads request.POST for POST only)."""
    kind = (request.content_type or "").lower()
    if kind == _FORM_TYPES[0]:
        return QueryDict(request.body, encoding=request.encoding).lists()
    try:
        fields, files = request.parse_file_upload(request.META, BytesIO(request.body))
    except MultiPartParserError:
        return []  # malformed: the view's own parsing refuses it
    return [*fields.lists(), *((name, [f.name or "" for f in group]) for name, group in files.lists())]


def check_request_characters(request) -> None:
    """check_characters on the path, the query string, the headers and a form body (JSON bodies: `loads`)."""
    # The headers only: under runserver META also holds the server's environment, whose undecodable bytes Python
    # keeps as lone surrogates and no client sent.
    headers = (value for key, value in request.META.items() if key.startswith("HTTP_") and isinstance(value, str))
    check_characters(request.path_info, request.META.get("CONTENT_TYPE", ""), *headers)
    for name, values in request.GET.lists():
        check_characters(name, *values)
    if (request.content_type or "").lower() in _FORM_TYPES and _declared_length(request):
        for name, values in _form_fields(request):
            check_characters(name, *values)


def refusal_response(request, refused: JsonRefused):
    if _is_json(request) or request.path.startswith("/api/"):
        return JsonResponse({"error": refused.code, "detail": refused.message}, status=400)
    return HttpResponse(refused.message, status=400, content_type="text/plain; charset=utf-8")


class RequestLimitsMiddleware:
    """Refuse, before any view, a body over TOPOS_MAX_BODY_BYTES, JSON nested over TOPOS_JSON_MAX_DEPTH, and a
    character no text column can store anywhere but in a JSON body (which `loads` looks through as it parses)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            if _declared_length(request) > max_body_bytes():
                raise too_large()
            if _is_json(request):
                check(request.body)  # read once; DRF and the views reuse the same bytes
            check_request_characters(request)
        except JsonRefused as refused:
            return refusal_response(request, refused)
        return self.get_response(request)

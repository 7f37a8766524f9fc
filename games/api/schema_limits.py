"""Documents in the OpenAPI schema the answers every endpoint may give because of the site-wide limits
(drf-spectacular post-processing hook, config/settings.py), so no view has to repeat them:

- 429 on every operation: the throttles (games.api.throttles), with `Retry-After`;
- 400 on every write: a body too large or JSON nested too deeply (config.request_limits);
- 422 wherever an `Idempotency-Key` is accepted: the key was used before for a different request;
- 401 on every operation: an API token that is unknown, revoked or expired is refused even where no account is
  needed (and every operation that needs one refuses a request without credentials);
- 403 on every write: a session request without its CSRF token; 415 on every write: a body the parsers do not read;
- 404 wherever a path names an object (an address that names none) or a `format` can be asked for (DRF answers
  an unknown one with 404).

Every refusal documented without a body, and every such answer, has the API's one error shape, the `Error`
component (games.api.responses).
"""

from __future__ import annotations

from django.conf import settings

from .idempotency import HEADER

WRITES = ("post", "put", "patch", "delete")
ERROR = {"$ref": "#/components/schemas/Error"}
RETRY_AFTER = {
    "Retry-After": {"schema": {"type": "integer", "minimum": 1}, "description": "Seconds to wait before trying again."}
}


def _rates() -> str:
    rates = settings.TOPOS_API_RATES
    words = {
        "anon": "anonymous requests per client address",
        "user": "requests per account",
        "moves": "move submissions per account",
    }
    return "; ".join(f"{words[scope]}: {rate}" for scope, rate in rates.items() if rate) or "none"


def _answer(operation: dict, status: str, description: str, headers: dict | None = None) -> None:
    answer = operation.setdefault("responses", {}).setdefault(status, {"description": ""})
    answer["description"] = " ".join(part for part in (answer.get("description", ""), description) if part)
    answer.setdefault("content", {"application/json": {"schema": ERROR}})
    if headers:
        answer.setdefault("headers", {}).update(headers)


def document_limits(result, generator, request, public):
    too_large = settings.TOPOS_MAX_BODY_BYTES // 1024
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            _answer(
                operation,
                "429",
                "Too many requests (`error`: throttled, or rate_limited for a limit of its "
                f"own): wait `Retry-After` seconds. Limits: {_rates()}.",
                RETRY_AFTER,
            )
            if method in WRITES:
                _answer(
                    operation,
                    "400",
                    f"A body over {too_large} KiB (`error`: too_large) or JSON nested deeper "
                    f"than {settings.TOPOS_JSON_MAX_DEPTH} levels (`error`: too_deep) is refused before "
                    "anything else is looked at.",
                )
            _answer(
                operation,
                "401",
                "Not authenticated: an API token that is unknown, revoked or expired (or, "
                "where an account is needed, no credentials); `detail` says which.",
            )
            if method in WRITES:
                _answer(
                    operation,
                    "415",
                    "A body in a media type the API does not read (it reads JSON, forms and "
                    "multipart forms), or a multipart body without its boundary (`error`: unsupported_media_type).",
                )
                _answer(
                    operation,
                    "403",
                    "A session request without its CSRF token (send the `X-CSRFToken` header, or use an API token).",
                )
            for status, answer in operation["responses"].items():
                if status.startswith(("4", "5")) and isinstance(answer, dict):
                    # A refusal has the one shape whatever the view declared (games.api.errors builds every one):
                    # a module's own error serializer would only be a second name for it.
                    answer["content"] = {"application/json": {"schema": ERROR}}
            parameters = operation.get("parameters", [])
            if any(p.get("in") == "path" for p in parameters) and "404" not in operation["responses"]:
                _answer(operation, "404", "The address names no such object.")
            for parameter in parameters:
                if parameter.get("name") == "format" and parameter.get("in") == "query":
                    _answer(operation, "404", "A `format` that is not one of those listed.")
                    # DRF reads an empty `format` as none given: the Accept header decides.
                    parameter.setdefault("schema", {}).setdefault("enum", [])
                    if "" not in parameter["schema"]["enum"]:
                        parameter["schema"]["enum"].append("")
                    parameter.setdefault("description", "The answer's format; empty or left out: as `Accept` asks.")
            if any(p.get("name") == HEADER and p.get("in") == "header" for p in operation.get("parameters", [])):
                if "422" not in operation["responses"]:
                    _answer(
                        operation,
                        "422",
                        "This Idempotency-Key was used before for a different request "
                        "(`error`: idempotency_key_reused); use a new key.",
                    )
    return result

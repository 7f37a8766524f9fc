"""Errors of the game services; each maps to one HTTP status and carries a message a person can act on."""

from __future__ import annotations


class ServiceError(Exception):
    status_code = 400
    code = "invalid"

    def __init__(self, message: str, *, field: str | None = None, **extra):
        super().__init__(message)
        self.message = message
        # The service argument at fault (e.g. "players"), so a form can place a translated
        # message next to its field; never sent by the API (only `extra` is).
        self.field = field
        self.extra = extra


class BadRequest(ServiceError):
    status_code, code = 400, "bad_request"


class IllegalMove(ServiceError):
    status_code, code = 400, "illegal_action"


class Forbidden(ServiceError):
    status_code, code = 403, "forbidden"


class NotFound(ServiceError):
    status_code, code = 404, "not_found"


class Conflict(ServiceError):
    status_code, code = 409, "conflict"


class StaleVersion(Conflict):
    code = "stale_version"


class TooManyRequests(ServiceError):
    """A limit on abuse ran out (accounts.limits); `retry_after` seconds until it allows one more."""

    status_code, code = 429, "rate_limited"

    def __init__(self, message: str, *, retry_after: int, **extra):
        super().__init__(message, retry_after=retry_after, **extra)
        self.retry_after = retry_after

"""What makes a setting unsafe: read by the settings (which refuse to start) and by the deploy checks.

Pure functions of the values, no Django: the settings modules import this before Django is set up.
"""

from __future__ import annotations

# Published in the repository, so it signs nothing anyone can trust: only for DEBUG runs and the tests.
DEVELOPMENT_SECRET_KEY = "topos-development-only-key-never-use-in-production-0123456789"
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE = 5


def secret_key_problem(key: str | None) -> str | None:
    """Why `key` must not sign sessions, password-reset links and API tokens in production; None if it may."""
    if not key:
        return "SECRET_KEY is not set."
    if key == DEVELOPMENT_SECRET_KEY or key.startswith("django-insecure"):
        return "SECRET_KEY is the development key published in the repository."
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE:
        return (
            f"SECRET_KEY is too weak: use {SECRET_KEY_MIN_LENGTH} characters or more, with at least "
            f"{SECRET_KEY_MIN_UNIQUE} different ones."
        )
    return None


def allowed_hosts_problem(hosts: list[str]) -> str | None:
    """Why `hosts` would let any Host header through (poisoned links, cache keys); None if they name the site."""
    if not hosts:
        return "ALLOWED_HOSTS is empty: name the site's host names, such as topos.example."
    if "*" in hosts:
        return "ALLOWED_HOSTS contains '*', which accepts any Host header: name the site's host names instead."
    return None

"""What makes a setting unsafe: read by the settings (which refuse to start) and by the deploy checks.

Pure functions of the values, no Django: the settings modules import this before Django is set up.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

# Published in the repository, so it signs nothing anyone can trust: only for DEBUG runs and the tests.
DEVELOPMENT_SECRET_KEY = "topos-development-only-key-never-use-in-production-0123456789"
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE = 10  # a random hex key (16 symbols) passes; a short pattern repeated does not
# Of its runs of three characters, at least this share differ: a random key repeats almost none (even in hex), a
# pattern repeated to the length repeats nearly all, whatever its alphabet.
SECRET_KEY_MIN_VARIED = 0.5


def secret_key_problem(key: str | None) -> str | None:
    """Why `key` must not sign sessions, password-reset links and API tokens in production; None if it may."""
    if not key:
        return "SECRET_KEY is not set."
    if key == DEVELOPMENT_SECRET_KEY or key.startswith("django-insecure"):
        return "SECRET_KEY is the development key published in the repository."
    runs = [key[i : i + 3] for i in range(len(key) - 2)]
    if (
        len(key) < SECRET_KEY_MIN_LENGTH
        or len(set(key)) < SECRET_KEY_MIN_UNIQUE
        or len(set(runs)) < SECRET_KEY_MIN_VARIED * len(runs)
    ):
        return (
            f"SECRET_KEY is too weak: use {SECRET_KEY_MIN_LENGTH} random characters or more, with at least "
            f"{SECRET_KEY_MIN_UNIQUE} different ones and no short pattern repeated."
        )
    return None


def allowed_hosts_problem(hosts: list[str]) -> str | None:
    """Why `hosts` would let any Host header through (poisoned links, cache keys); None if they name the site."""
    if not hosts:
        return "ALLOWED_HOSTS is empty: name the site's host names, such as topos.example."
    if "*" in hosts:
        return "ALLOWED_HOSTS contains '*', which accepts any Host header: name the site's host names instead."
    # `.example.org` allows a domain and its subdomains; a dot and one label (`.com`) allows everyone under a
    # public suffix, which is any Host header someone can register.
    suffixes = [host for host in hosts if host.startswith(".") and "." not in host[1:].strip(".")]
    if suffixes:
        return (
            f"ALLOWED_HOSTS contains {', '.join(map(repr, suffixes))}, which accepts every host name under a public "
            "suffix: name the site's host names (`.topos.example` for it and its subdomains)."
        )
    return None


def is_loopback(host: str | None) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False


def site_url_problem(url: str) -> str | None:
    """Why links built on `url` (emails, the API's links) must not go out from a production site; None if they may.
    Plain HTTP is allowed only on the machine itself, where nothing travels over a network."""
    address = urlsplit(url)
    if address.scheme != "https" and not is_loopback(address.hostname):
        return (
            f"SITE_URL is {url!r}: links in emails would not use HTTPS (anyone on the way could read a password "
            "reset link). Serve the site over HTTPS and set SITE_URL=https://..."
        )
    return None

"""The site's VAPID key pair (Web Push, RFC 8292): who signs the pushes, and the key browsers subscribe with.

TOPOS_VAPID_PRIVATE_KEY (PEM, or the raw key in base64url) from the environment, when set.  Otherwise
TOPOS_VAPID_KEY_FILE: by default `vapid-private.pem` beside the SQLite database of the embedded default, made on
first use (mode 0600) and kept, so every process of the site (web, worker) signs with the same key and
subscriptions stay valid across restarts.  With PostgreSQL and no key configured there is no file: push is off
(the settings page says so) until TOPOS_VAPID_PRIVATE_KEY is set.
"""

from __future__ import annotations

import os
import tempfile
from email.utils import parseaddr
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from py_vapid import Vapid, b64urlencode


def _from_setting(raw: str) -> Vapid:
    raw = raw.strip()
    if raw.startswith("-----BEGIN"):
        return Vapid.from_pem(raw.encode())
    return Vapid.from_string(raw)


def _from_file(path: Path) -> Vapid:
    """The key in `path`, written there first if there is none yet (two processes at once: the first one wins)."""
    if not path.exists():
        key = Vapid()
        key.generate_keys()
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".vapid-")
        try:
            os.write(fd, key.private_pem())
            os.close(fd)
            os.chmod(temporary, 0o600)
            try:
                os.link(temporary, path)  # atomic: fails if another process made it meanwhile
            except FileExistsError:
                pass
        finally:
            os.unlink(temporary)
    return Vapid.from_pem(path.read_bytes())


@lru_cache(maxsize=4)
def _key(private: str, file: str) -> Vapid | None:
    if private:
        return _from_setting(private)
    if file:
        return _from_file(Path(file))
    return None


def key() -> Vapid | None:
    """The site's key, or None: push is off."""
    return _key(settings.TOPOS_VAPID_PRIVATE_KEY or "", str(settings.TOPOS_VAPID_KEY_FILE or ""))


def public_key() -> str | None:
    """The application server key browsers subscribe with (uncompressed point, base64url), or None."""
    found = key()
    if found is None:
        return None
    raw = found.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64urlencode(raw)


def subject() -> str:
    """The contact the push services may write to (the `sub` claim)."""
    return settings.TOPOS_VAPID_SUBJECT or f"mailto:{parseaddr(settings.DEFAULT_FROM_EMAIL)[1]}"

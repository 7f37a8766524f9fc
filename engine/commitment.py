"""The commitment to a game's seed (ruling G0.2).

At the start the site publishes a salt and SHA-256(salt + seed) (both as UTF-8 text, the digest in hex);
the seed itself only once the game is over.  Anyone can then check that the seed was fixed at the start.
The salt keeps the short seed from being found by trying seeds against the digest.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

SCHEME = "sha256(salt + seed), UTF-8, hex digest"


def new_salt() -> str:
    return secrets.token_hex(16)


def commit(seed: str, salt: str) -> str:
    return hashlib.sha256((salt + seed).encode("utf-8")).hexdigest()


def matches(seed: str, salt: str, commitment: str) -> bool:
    return hmac.compare_digest(commit(seed, salt), commitment)

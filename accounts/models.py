"""People who play on Topos, and the API tokens they create for apps, scripts and bots."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone


class User(AbstractUser):
    """A player.  Custom from the first migration so the model can grow without pain."""

    email = models.EmailField("email address", unique=True)
    # Her language and time zone, for pages, notifications and emails (accounts.personal).  Taken
    # from her browser at sign-up; "" means "as the browser asks" (a page) or the site's (an email).
    language = models.CharField(max_length=10, blank=True, default="", choices=settings.LANGUAGES)
    time_zone = models.CharField(max_length=64, default="UTC", help_text="An IANA name, e.g. Europe/Madrid.")
    # A bot account (decision 12): plays through the API only and is shown as a bot; never turned back
    # (accounts.bot_accounts.account_make_bot), so her games stay honest about who played them.
    is_bot_account = models.BooleanField(default=False)
    # Decision 29: the site's worker plays her forced decisions (exactly one legal decision, nothing taken back
    # possible) for her, logged as hers with source "auto" (games.services.auto_play); never where she has a choice.
    auto_play_forced = models.BooleanField(default=False)
    # Ruling S8: set when she deleted her account (accounts.deletion).  The row stays, emptied of everything
    # personal, because her seats keep their place in games; she is then shown as "deleted player N".
    deleted_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.username


def hash_token(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A named API key; only its hash is stored, so the key is shown once, at creation."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=60)
    prefix = models.CharField(max_length=8, help_text="The first characters, to recognise a key in lists.")
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="None: the key never expires.")

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None and not self.is_expired

    @property
    def is_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @staticmethod
    def new_key() -> str:
        return "tps_" + secrets.token_urlsafe(30)


class LimitHit(models.Model):
    """One counted use of a limited action (a failed login, a reset email, an invitation), see accounts.limits.

    `key` is a keyed hash of what is counted (an account name, a client address, a recipient), so
    no address or name is stored here in clear.  Rows older than their rule's window are purged by beat.
    """

    rule = models.CharField(max_length=32)
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["rule", "key", "created_at"], name="limit_hit_window")]

    def __str__(self) -> str:
        return f"{self.rule} {self.key[:8]}… {self.created_at:%Y-%m-%d %H:%M:%S}"


class Block(models.Model):
    """Ruling S7: `blocker` keeps `blocked` away: no invitation or challenge either way, never seated together by
    the lobby or a tournament they did not both enter, their chat hidden from each other, nothing of his told to
    her.  It works both ways on purpose, so that nobody can tell which of the two blocked (games.services.blocks)."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["blocker", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"),
        ]
        # "blocked between a and b" is asked from either side: the unique index serves blocker first,
        # this one blocked first.
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_by_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"

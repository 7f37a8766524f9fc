"""Reads on accounts shared by the profile page and the API (accounts.views, games.api.tokens)."""

from __future__ import annotations

from django.db.models import QuerySet

from .models import ApiToken


def tokens_of_user(*, user) -> QuerySet[ApiToken]:
    """Her tokens not revoked, newest first (expired ones too: they are shown as expired, until revoked)."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at", "-pk")


def token_of_user(*, user, token_id: int) -> ApiToken | None:
    """One of her tokens not revoked; someone else's, or a revoked one, is simply not there (404)."""
    return tokens_of_user(user=user).filter(pk=token_id).first()

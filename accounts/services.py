"""Writes on accounts: sign-up and API tokens (one service per write)."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .models import ApiToken, hash_token

User = get_user_model()


def user_create(*, username: str, email: str, password: str) -> "User":
    return User.objects.create_user(username=username, email=email, password=password)


def api_token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """Create a token; the plain key is returned here once and never stored."""
    key = ApiToken.new_key()
    token = ApiToken.objects.create(user=user, name=name.strip()[:60] or "API token", prefix=key[4:10],
                                    digest=hash_token(key))
    return token, key


def api_token_rename(*, token: ApiToken, name: str) -> ApiToken:
    token.name = name.strip()[:60] or token.name
    token.save(update_fields=["name"])
    return token


@transaction.atomic
def api_token_revoke(*, token: ApiToken) -> ApiToken:
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token

"""Celery tasks of accounts: the emails a request must not send itself, and the limits' housekeeping.

A request that asks for a password reset does the same thing whether or not the address has an
account: it hands the address to `password_reset_mail`.  Mails are in the language of the page the
person used (passed along, as the worker has no request).
"""

from __future__ import annotations

from celery import shared_task
from django.utils import translation

from . import limits, services, token_uses


@shared_task(acks_late=True, reject_on_worker_lost=True)
def password_reset_mail(email: str, language: str) -> None:
    with translation.override(language):
        services.password_reset_mail(email=email)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def password_changed_mail(user_id: int, how: str, token_names: list[str], language: str) -> bool:
    with translation.override(language):
        return services.password_changed_mail(user_id=user_id, how=how, token_names=token_names)


@shared_task(acks_late=True, reject_on_worker_lost=True)
def limit_hits_purge() -> int:
    """Beat, hourly: forget the uses no limit counts any more."""
    return limits.limit_hits_purge()


@shared_task(acks_late=True, reject_on_worker_lost=True)
def token_uses_record() -> int:
    """Beat, every five minutes: the tokens' uses noted by read requests, written to their rows."""
    return token_uses.token_uses_record()

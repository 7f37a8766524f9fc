"""Deleting one's own account (ruling S8): her seats keep their place, everything personal goes.

Every row of every installed model that points at her (a foreign key, a one-to-one, the through table of a
many-to-many) is found from Django's model registry, not from a list kept by hand: it is deleted (a nullable
`SET_NULL` link is emptied instead) unless the link is named in the short allow-list `KEPT`, with the reason it
stays.  So a model added later with a link to the user is erased with her without anyone editing this file, and
tests/accounts/test_account_deletion.py fails when the allow-list names a link that no longer exists.

Apps that sit later in the import order (games and what it holds) register, from their AppConfig.ready:
`keep(...)` for the links they keep, `before_deletion(fn)` for what must happen first (her running seats left
by the rules of ruling S1), and `scrubber(fn)` for rows of other people that carry her name as text (a
notification's stored facts).  The user row itself stays, emptied: her seats hold it (`Seat.user` is PROTECT),
and it shows as "deleted player N" (accounts.names).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.apps import apps
from django.contrib.auth import authenticate, get_user_model
from django.contrib.sessions.models import Session
from django.db import models, transaction
from django.utils import timezone

from . import limits
from .names import deleted_email, deleted_username

# "app_label.Model.field" -> why the rows stay (with her row emptied, they show the neutral name).
KEPT: dict[str, str] = {}
_BEFORE: list[Callable] = []
_SCRUBBERS: list[Callable] = []


def keep(link: str, reason: str) -> None:
    """Keep the rows of `link` ("app_label.Model.field") when a person is deleted, for `reason`."""
    KEPT[link] = reason


def before_deletion(fn: Callable) -> Callable:
    """fn(user) runs first, in the deletion's transaction (e.g. leaving her running games, ruling S1)."""
    _BEFORE.append(fn)
    return fn


def scrubber(fn: Callable) -> Callable:
    """fn(user, old_name, new_name) rewrites her name where other people's rows hold it as text."""
    _SCRUBBERS.append(fn)
    return fn


@dataclass(frozen=True)
class Link:
    model: type[models.Model]
    field: models.Field = field(hash=False, compare=False)

    @property
    def label(self) -> str:
        return f"{self.model._meta.label}.{self.field.name}"


def user_links() -> list[Link]:
    """Every concrete foreign key or one-to-one, in every installed model (through tables of many-to-many
    relations included), that points at the user model."""
    user = get_user_model()
    links = []
    for model in apps.get_models(include_auto_created=True):
        for f in model._meta.get_fields():
            if f.concrete and (f.many_to_one or f.one_to_one) and f.related_model is user:
                links.append(Link(model, f))
    return links


def _nullable(f: models.Field) -> bool:
    return f.null and getattr(f.remote_field, "on_delete", None) is models.SET_NULL


@dataclass
class Deleted:
    user_id: int
    username: str
    erased: dict[str, int]  # link -> rows deleted or emptied


def deletion_password_check(*, request, user, password: str) -> bool | limits.Refusal:
    """Is `password` hers?  Counted as a login attempt (accounts.backends), so a stolen session or token cannot try
    passwords at the deletion form without end: once the account's or the network's attempts run out, the Refusal
    says when to come back, and the hasher is not even run."""
    checked = authenticate(request, username=user.get_username(), password=password)
    refusal = getattr(request, "login_refusal", None)
    if refusal is not None:
        return refusal
    return checked is not None and checked.pk == user.pk


def account_delete(*, user) -> Deleted:
    """Delete `user`'s account as ruling S8 says; the caller has checked her password."""
    user_model = get_user_model()
    erased: dict[str, int] = {}
    with transaction.atomic():
        user = user_model.objects.select_for_update().get(pk=user.pk)
        old_name = user.username
        for fn in _BEFORE:
            fn(user)
        for link in user_links():
            if link.label in KEPT:
                continue
            rows = link.model._default_manager.filter(**{link.field.name: user.pk})
            if _nullable(link.field):
                count = rows.update(**{link.field.name: None})
            else:
                count = rows.count()
                rows.delete()
            erased[link.label] = count
        new_name = deleted_username(user.pk)
        for fn in _SCRUBBERS:
            fn(user, old_name, new_name)
        user.username = new_name
        user.email = deleted_email(user.pk)
        user.first_name = user.last_name = ""
        user.set_unusable_password()
        user.is_active = user.is_staff = user.is_superuser = False
        user.language, user.time_zone = "", "UTC"
        user.auto_play_forced = False
        user.last_login = None
        user.deleted_at = timezone.now()
        user.save()
        _sessions_end(user.pk)
    return Deleted(user.pk, new_name, erased)


def _sessions_end(user_id: int) -> None:
    """Her sessions, on every device (the session store keeps no index by user: each live one is read)."""
    stale = [
        s.session_key
        for s in Session.objects.filter(expire_date__gt=timezone.now()).iterator()
        if str(s.get_decoded().get("_auth_user_id")) == str(user_id)
    ]
    Session.objects.filter(session_key__in=stale).delete()

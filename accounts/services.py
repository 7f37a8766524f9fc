"""Writes on accounts: sign-up and activation, password resets and changes, and API tokens (one service per write)."""

from __future__ import annotations

import logging
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.hashers import make_password
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from config.celery import enqueue

from . import limits, personal
from .models import ApiToken, hash_token

User = get_user_model()
log = logging.getLogger(__name__)


def user_create(*, username: str, email: str, password: str, language: str = "", time_zone: str = "") -> "User":
    """A new active account (tests, the demo); `language` and `time_zone` as in user_signup."""
    return User.objects.create_user(username=username, email=email, password=password, **_speech(language, time_zone))


def _speech(language: str, time_zone: str) -> dict:
    """What a browser said, kept only where the site knows it."""
    return {
        "language": language if language in dict(settings.LANGUAGES) else "",
        "time_zone": time_zone if personal.is_time_zone(time_zone) else "UTC",
    }


def user_auto_play_set(*, user, on: bool) -> "User":
    """Decision 29: whether the site plays her forced decisions for her (games.services.auto_play)."""
    user.auto_play_forced = bool(on)
    user.save(update_fields=["auto_play_forced"])
    return user


def user_speech_set(*, user, language: str | None = None, time_zone: str | None = None) -> "User":
    """Change the language and/or time zone `user` is spoken to in; BadInput names a value not offered."""
    changed = []
    if language is not None:
        if language not in dict(settings.LANGUAGES):
            raise ValidationError(
                _("The site does not speak %(language)s: choose English, Spanish or Traditional Chinese.")
                % {"language": language}
            )
        user.language = language
        changed.append("language")
    if time_zone is not None:
        if not personal.is_time_zone(time_zone):
            raise ValidationError(
                _("%(zone)s is not a time zone we know: choose one from the list, e.g. Europe/Madrid.")
                % {"zone": time_zone}
            )
        user.time_zone = time_zone
        changed.append("time_zone")
    if changed:
        User.objects.filter(pk=user.pk).update(**{field: getattr(user, field) for field in changed})
    return user


# --- Sign-up with a confirmation email ------------------------------------------------
#
# Every accepted sign-up form ends on the same "check your email" page, whether the address
# was free or not, so the form cannot be used to learn who has an account.  A free address
# gets an inactive account and an activation link; a taken one gets a note to its owner
# instead (and nothing is created).  Usernames are public on the site anyway, so a taken
# username is said plainly on the form.


class ActivationTokenGenerator(PasswordResetTokenGenerator):
    """One-use activation links: the hash covers is_active, so the link dies once used."""

    key_salt = "accounts.services.ActivationTokenGenerator"

    def _make_hash_value(self, user, timestamp):
        return f"{super()._make_hash_value(user, timestamp)}{user.is_active}"


activation_token = ActivationTokenGenerator()


def pending_expired_q() -> Q:
    """Sign-ups never confirmed within the link's lifetime: their username and email are free again."""
    cutoff = timezone.now() - timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT)
    return Q(is_active=False, last_login__isnull=True, date_joined__lt=cutoff)


def _is_pending(user) -> bool:
    return not user.is_active and user.last_login is None


def _send(*, to: str, subject: str, template: str, context: dict) -> None:
    """Send one plain-text mail; a failing mail server must not change what the visitor sees."""
    body = render_to_string(template, context)
    try:
        send_mail(subject, body, None, [to])
    except Exception:  # noqa: BLE001 - logged, and the page stays the same for every outcome
        log.exception("Could not send %s to user address", template)


def activation_path(user) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return reverse("signup_activate", kwargs={"uidb64": uid, "token": activation_token.make_token(user)})


def _mail_activation(user, *, again: bool) -> None:
    site_url = settings.SITE_URL  # every email's links start here, whatever host the request named
    _send(
        to=user.email,
        subject=_("Confirm your Topos account"),
        template="accounts/email/activate.txt",
        context={"user": user, "again": again, "site_url": site_url, "activate_url": site_url + activation_path(user)},
    )


def _mail_existing(user) -> None:
    site_url = settings.SITE_URL
    _send(
        to=user.email,
        subject=_("Someone tried to sign up on Topos with your address"),
        template="accounts/email/already_registered.txt",
        context={
            "user": user,
            "site_url": site_url,
            "login_url": site_url + reverse("login"),
            "reset_url": site_url + reverse("password_reset"),
        },
    )


def user_signup(*, username: str, email: str, password: str, language: str = "", time_zone: str = "") -> str:
    """Start a sign-up and email the address; returns what happened ("created", "pending", "exists").

    `language` and `time_zone` are what her browser said (the page's language, the zone its clock
    reported); the account keeps them, and unknown values fall back to the site's.

    The caller must not show the outcome to the visitor: it is for logs and tests only.
    Raises IntegrityError only if the username was taken in the meantime.
    """
    email = User.objects.normalize_email(email).strip()
    # Hash on every path, so the answer takes as long whether or not the address is known.
    password_hash = make_password(password)
    user = None
    with transaction.atomic():
        # Unconfirmed, expired sign-ups give their username and address back.
        User.objects.filter(pending_expired_q()).filter(Q(username__iexact=username) | Q(email__iexact=email)).filter(
            seats__isnull=True
        ).delete()
        owner = User.objects.filter(email__iexact=email).first()
        if owner is None:
            try:
                with transaction.atomic():
                    user = User(
                        username=User.normalize_username(username),
                        email=email,
                        password=password_hash,
                        is_active=False,
                        **_speech(language, time_zone),
                    )
                    user.save()
            except IntegrityError:
                # The form checked the username, so this is a race: on the address, or on the name.
                owner = User.objects.filter(email__iexact=email).first()
                if owner is None:
                    raise
    if user is not None:
        _mail_activation(user, again=False)
        return "created"
    if _is_pending(owner):
        _mail_activation(owner, again=True)
        return "pending"
    if owner.is_active:
        _mail_existing(owner)
    # A deactivated (e.g. banned) account gets no mail at all.
    return "exists"


def user_from_uidb64(uidb64: str):
    try:
        return User.objects.get(pk=force_str(urlsafe_base64_decode(uidb64)))
    except (TypeError, ValueError, OverflowError, User.DoesNotExist):
        return None


def user_activate(*, uidb64: str, token: str):
    """Activate the account named by a valid activation link; None if the link is wrong, used or old."""
    user = user_from_uidb64(uidb64)
    if user is None or not _is_pending(user) or not activation_token.check_token(user, token):
        return None
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user


def demo_user_ensure(
    *, username: str = "demo", email: str = "demo@topos.localhost", password: str = "topos-demo"
) -> tuple["User", bool]:
    """The demo account of the one-command start, created or put back as documented."""
    with transaction.atomic():
        user, created = User.objects.get_or_create(username=username, defaults={"email": email})
        user.email = email
        user.is_active = True
        user.set_password(password)
        user.save()
    return user, created


# --- Passwords ---------------------------------------------------------------------------
#
# A reset is asked for by address.  The request only hands the address to a task
# (accounts.tasks.password_reset_mail), whether or not an account has it, so the answer is the
# same and takes as long either way; the task finds the account and mails the link.


def password_reset_mail(*, email: str) -> None:
    """Mail a reset link to every active account with this address (none: nothing happens)."""
    form = PasswordResetForm({"email": email})
    if not form.is_valid():
        return
    site = urlsplit(settings.SITE_URL)  # the link starts with SITE_URL like every other email's
    form.save(
        domain_override=site.netloc,
        use_https=site.scheme == "https",
        email_template_name="registration/password_reset_email.txt",
        subject_template_name="registration/password_reset_subject.txt",
        extra_email_context={"site_url": settings.SITE_URL, "site_name": "Topos"},
    )


def user_password_changed(*, user, how: str) -> list[ApiToken]:
    """After her password was changed ("changed") or reset by email ("reset"): revoke her API tokens,
    lift the login lock on her account, and tell her by email.  Returns the tokens revoked.

    Whoever learnt the old password may have made a key with it; a key outlives sessions, so it goes too.
    """
    with transaction.atomic():
        tokens = list(
            ApiToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True).order_by("created_at")
        )
        ApiToken.objects.filter(pk__in=[t.pk for t in tokens]).update(revoked_at=timezone.now())
        limits.clear("login-account", user.get_username())
        names = [f"{t.name} ({t.prefix}…)" for t in tokens]
        language = get_language()
        transaction.on_commit(lambda: _password_changed_queue(user.pk, how, names, language))
    return tokens


def _password_changed_queue(user_id: int, how: str, names: list[str], language: str) -> None:
    enqueue("accounts.tasks.password_changed_mail", user_id, how, names, language)


def password_changed_mail(*, user_id: int, how: str, token_names: list[str]) -> bool:
    """The note that her password changed (and which keys were revoked); False if she has no address."""
    user = User.objects.filter(pk=user_id).first()
    if user is None or not user.email:
        return False
    site_url = settings.SITE_URL
    _send(
        to=user.email,
        subject=_("Your Topos password was changed"),
        template="accounts/email/password_changed.txt",
        context={
            "user": user,
            "reset": how == "reset",
            "token_names": token_names,
            "site_url": site_url,
            "profile_url": site_url + reverse("profile"),
            "reset_url": site_url + reverse("password_reset"),
        },
    )
    return True


# --- API tokens -------------------------------------------------------------------------


def api_token_create(*, user, name: str, expires_in_days: int | None = None) -> tuple[ApiToken, str]:
    """Create a token, valid for `expires_in_days` (None: until revoked); the plain key is returned here once
    and never stored."""
    key = ApiToken.new_key()
    expires_at = timezone.now() + timedelta(days=expires_in_days) if expires_in_days else None
    token = ApiToken.objects.create(
        user=user,
        name=name.strip()[:60] or _("API token"),
        prefix=key[4:10],
        digest=hash_token(key),
        expires_at=expires_at,
    )
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


# --- moderation (decision 17) -------------------------------------------------------------------


@transaction.atomic
def user_deactivate(*, user) -> list[ApiToken]:
    """Close an account (the admin's "deactivate"): she can no longer log in, her sessions stop working at their
    next request (Django's ModelBackend refuses an inactive user), every API token is revoked, and nobody can invite
    or challenge her (games.services.tables).  Her games go on: at a running table her clock runs and, after three
    missed deadlines, the site's bot plays her seat (ruling S1).  Returns the tokens revoked."""
    locked = User.objects.select_for_update().get(pk=user.pk)
    tokens = list(ApiToken.objects.select_for_update().filter(user=locked, revoked_at__isnull=True))
    ApiToken.objects.filter(pk__in=[t.pk for t in tokens]).update(revoked_at=timezone.now())
    if locked.is_active:
        locked.is_active = False
        locked.save(update_fields=["is_active"])
    return tokens

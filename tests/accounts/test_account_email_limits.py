"""Password-reset and sign-up emails are limited per client address and per recipient; the reset
request does the same thing whether or not the address has an account (the mail leaves from a task)."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F
from django.urls import reverse

from accounts.models import LimitHit
from tests.accounts.test_account_password import without_csrf

User = get_user_model()
pytestmark = pytest.mark.django_db

RESET_TASK = "accounts.tasks.password_reset_mail"
RESET_PER_RECIPIENT, RESET_WINDOW = settings.TOPOS_RATE_LIMITS["reset-recipient"]
RESET_PER_ADDRESS = settings.TOPOS_RATE_LIMITS["reset-address"][0]
SIGNUP_PER_RECIPIENT, SIGNUP_WINDOW = settings.TOPOS_RATE_LIMITS["signup-recipient"]
SIGNUP_PER_ADDRESS = settings.TOPOS_RATE_LIMITS["signup-address"][0]


def reset(client, email: str, address: str = "198.51.100.7", **extra):
    return client.post(reverse("password_reset"), {"email": email}, REMOTE_ADDR=address, **extra)


def sign_up(client, n: int, email: str, address: str = "198.51.100.7"):
    password = "violet-tiles-on-a-hex"
    return client.post(
        reverse("signup"),
        {"username": f"dora{n}", "email": email, "password1": password, "password2": password},
        REMOTE_ADDR=address,
    )


def time_passes(seconds: int) -> None:
    LimitHit.objects.update(created_at=F("created_at") - timedelta(seconds=seconds))


# --- the reset request is the same for every address --------------------------------------------


def test_a_reset_request_only_hands_the_address_to_a_task_known_or_not(client, owner, sent_tasks, mailoutbox):
    known = reset(client, "Ana@Example.com")
    unknown = reset(client, "nobody@example.com")
    # The same answer, the same work: one task with the address typed, and no mail from the request itself.
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert [(name, args[0]) for name, args, _eta in sent_tasks()] == [
        (RESET_TASK, "Ana@Example.com"),
        (RESET_TASK, "nobody@example.com"),
    ]
    assert mailoutbox == []


def test_the_reset_task_mails_only_an_existing_account_in_the_language_of_the_page(
    client, owner, mailoutbox, celery_eager
):
    reset(client, "nobody@example.com", HTTP_ACCEPT_LANGUAGE="es")
    assert mailoutbox == []
    reset(client, owner.email, HTTP_ACCEPT_LANGUAGE="es")
    [mail] = mailoutbox
    assert mail.to == [owner.email] and "contraseña" in mail.subject.lower()


# --- reset limits ---------------------------------------------------------------------------


def test_resets_for_one_recipient_are_limited_whatever_the_address_and_say_so(client, owner, sent_tasks):
    for i in range(RESET_PER_RECIPIENT):
        assert reset(client, owner.email, address=f"203.0.113.{i}").status_code == 302
    refused = reset(client, owner.email.upper(), address="192.0.2.1")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= RESET_WINDOW
    page = refused.content.decode()
    assert "Too many password reset emails" in page and "Try again in" in page
    assert len(sent_tasks()) == RESET_PER_RECIPIENT  # the refused one sent nothing
    # Another address is not concerned, and the hour passes.
    assert reset(client, "other@example.com", address="192.0.2.1").status_code == 302
    time_passes(RESET_WINDOW + 1)
    assert reset(client, owner.email, address="192.0.2.1").status_code == 302


def test_a_refusal_reads_the_same_for_a_known_and_an_unknown_address(client, owner):
    for i in range(RESET_PER_RECIPIENT):
        reset(client, owner.email, address=f"203.0.113.{i}")
        reset(client, "nobody@example.com", address=f"203.0.113.{i}")
    known, unknown = reset(client, owner.email), reset(client, "nobody@example.com")
    assert known.status_code == unknown.status_code == 429
    assert without_csrf(known).replace(owner.email, "X") == without_csrf(unknown).replace("nobody@example.com", "X")


def test_resets_from_one_address_are_limited(client, db, sent_tasks):
    for i in range(RESET_PER_ADDRESS):
        assert reset(client, f"someone{i}@example.com").status_code == 302
    assert reset(client, "one-more@example.com").status_code == 429
    assert reset(client, "one-more@example.com", address="192.0.2.1").status_code == 302
    assert len(sent_tasks()) == RESET_PER_ADDRESS + 1


def test_the_refusal_is_translated(client, owner):
    for i in range(RESET_PER_RECIPIENT):
        reset(client, owner.email, address=f"203.0.113.{i}")
    page = reset(client, owner.email, HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "Too many" not in page and "分鐘" in page


# --- sign-up limits -------------------------------------------------------------------------


def test_sign_ups_with_someone_elses_address_are_limited(client, owner, mailoutbox):
    for i in range(SIGNUP_PER_RECIPIENT):
        assert sign_up(client, i, owner.email, address=f"203.0.113.{i}").status_code == 302
    assert len(mailoutbox) == SIGNUP_PER_RECIPIENT  # each one told her
    refused = sign_up(client, 99, owner.email, address="192.0.2.1")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many sign-ups were tried" in refused.content.decode()
    assert len(mailoutbox) == SIGNUP_PER_RECIPIENT
    time_passes(SIGNUP_WINDOW + 1)
    assert sign_up(client, 99, owner.email, address="192.0.2.1").status_code == 302


def test_sign_ups_from_one_address_are_limited(client, db, mailoutbox):
    for i in range(SIGNUP_PER_ADDRESS):
        assert sign_up(client, i, f"new{i}@example.com").status_code == 302
    refused = sign_up(client, 99, "new99@example.com")
    assert refused.status_code == 429
    assert not User.objects.filter(username="dora99").exists()
    assert len(mailoutbox) == SIGNUP_PER_ADDRESS


def test_a_sign_up_form_with_mistakes_is_not_counted(client, db):
    for i in range(SIGNUP_PER_ADDRESS + 2):
        reply = client.post(
            reverse("signup"),
            {"username": f"dora{i}", "email": "x@example.com", "password1": "12345678", "password2": "12345678"},
        )
        assert reply.status_code == 200
    assert sign_up(client, 1, "x@example.com", address="127.0.0.1").status_code == 302

"""Sign-up with a confirmation mail, without telling anyone whether an address has an account."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.accounts.conftest import links_in

User = get_user_model()
pytestmark = pytest.mark.django_db

NEW = {
    "username": "dora",
    "email": "dora@example.com",
    "password1": "violet-tiles-on-a-hex",
    "password2": "violet-tiles-on-a-hex",
}


def test_it_signs_up_confirms_by_mail_and_logs_in(client, mailoutbox):
    r = client.post(reverse("signup"), NEW)
    assert r.status_code == 302 and r["Location"] == reverse("signup_done")
    user = User.objects.get(username="dora")
    assert not user.is_active  # nothing to log in with until the address is confirmed
    assert [m.to for m in mailoutbox] == [["dora@example.com"]]
    [link] = [p for p in links_in(mailoutbox[0]) if "/activate/" in p]

    # A GET (a mail scanner) only shows the button.
    assert client.get(link).status_code == 200
    user.refresh_from_db()
    assert not user.is_active

    r = client.post(link)
    assert r.status_code == 302 and r["Location"] == reverse("profile")
    user.refresh_from_db()
    assert user.is_active and user.check_password(NEW["password1"])
    assert "dora" in client.get(reverse("profile")).content.decode()

    # The link works once.
    client.logout()
    assert client.post(link).status_code == 400
    assert not client.session.get("_auth_user_id")


def test_a_taken_email_gets_the_same_answer_and_the_owner_gets_a_note(client, owner, mailoutbox):
    fresh = client.post(reverse("signup"), NEW)
    mailoutbox.clear()
    taken = client.post(reverse("signup"), {**NEW, "username": "mallory", "email": "ANA@example.com"})
    # The visitor cannot tell the two apart ...
    assert (taken.status_code, taken["Location"]) == (fresh.status_code, fresh["Location"])
    # ... nothing is created, and the owner hears about it with her username and the way back in.
    assert not User.objects.filter(username="mallory").exists()
    assert [m.to for m in mailoutbox] == [[owner.email]]
    body = mailoutbox[0].body
    assert "ana" in body and reverse("password_reset") in body and "/activate/" not in body


def test_a_taken_username_is_said_plainly_even_in_another_case(client, owner, mailoutbox):
    r = client.post(reverse("signup"), {**NEW, "username": "ANA"})
    assert r.status_code == 200
    assert "username is taken" in r.content.decode()
    assert User.objects.count() == 1 and mailoutbox == []


def test_a_weak_password_is_refused_before_anything_happens(client, mailoutbox):
    r = client.post(reverse("signup"), {**NEW, "password1": "12345678", "password2": "12345678"})
    assert r.status_code == 200
    assert not User.objects.filter(username="dora").exists() and mailoutbox == []


def test_mismatched_passwords_are_refused(client, mailoutbox):
    r = client.post(reverse("signup"), {**NEW, "password2": "something-else-entirely"})
    assert r.status_code == 200 and mailoutbox == []


def test_signing_up_again_with_a_waiting_address_sends_the_link_again(client, mailoutbox):
    client.post(reverse("signup"), NEW)
    r = client.post(reverse("signup"), {**NEW, "username": "dora2"})
    assert r["Location"] == reverse("signup_done")
    assert list(User.objects.values_list("username", flat=True)) == ["dora"]
    assert len(mailoutbox) == 2 and "dora" in mailoutbox[1].body
    [link] = [p for p in links_in(mailoutbox[1]) if "/activate/" in p]
    assert client.post(link).status_code == 302
    assert User.objects.get(username="dora").is_active


def test_an_unconfirmed_signup_cannot_log_in_and_is_told_nothing_special(client):
    client.post(reverse("signup"), NEW)
    unconfirmed = client.post(reverse("login"), {"username": "dora", "password": NEW["password1"]})
    unknown = client.post(reverse("login"), {"username": "nobody", "password": NEW["password1"]})
    assert unconfirmed.status_code == unknown.status_code == 200
    assert unconfirmed.context["form"].errors == unknown.context["form"].errors
    assert not client.session.get("_auth_user_id")


def test_an_expired_signup_frees_its_username_and_address(client, mailoutbox):
    client.post(reverse("signup"), NEW)
    old = timezone.now() - timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT + 60)
    User.objects.filter(username="dora").update(date_joined=old)
    r = client.post(reverse("signup"), {**NEW, "email": "dora.new@example.com"})
    assert r["Location"] == reverse("signup_done")
    assert User.objects.get(username="dora").email == "dora.new@example.com"


def test_a_forged_activation_link_does_nothing(client):
    client.post(reverse("signup"), NEW)
    dora = User.objects.get(username="dora")
    uid = urlsafe_base64_encode(force_bytes(dora.pk))
    assert client.post(reverse("signup_activate", args=[uid, "abc-123"])).status_code == 400
    dora.refresh_from_db()
    assert not dora.is_active


def test_a_logged_in_user_is_sent_to_her_profile(client, owner):
    client.force_login(owner)
    r = client.get(reverse("signup"))
    assert r.status_code == 302 and r["Location"] == reverse("profile")

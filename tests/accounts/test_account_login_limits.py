"""Failed logins are limited per account and per client address; a refused attempt never checks the password.

Time passes by moving the counted attempts back (their `created_at`), never by sleeping or mocking.
"""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db.models import F
from django.test import RequestFactory
from django.urls import reverse

from accounts.limits import client_address
from accounts.models import LimitHit
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db

ACCOUNT_MOST, ACCOUNT_WINDOW = settings.TOPOS_RATE_LIMITS["login-account"]
ADDRESS_MOST, ADDRESS_WINDOW = settings.TOPOS_RATE_LIMITS["login-address"]


def log_in(client, username: str, password: str, address: str = "198.51.100.7"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def logged_in(client) -> bool:
    return bool(client.session.get("_auth_user_id"))


def time_passes(seconds: int) -> None:
    LimitHit.objects.update(created_at=F("created_at") - timedelta(seconds=seconds))


def assert_refused(reply) -> None:
    assert reply.status_code == 429
    assert 0 < int(reply["Retry-After"]) <= max(ACCOUNT_WINDOW, ADDRESS_WINDOW)
    page = reply.content.decode()
    assert "Too many failed attempts to log in" in page and "Try again in" in page
    assert "do not match" not in page


def test_the_limits_are_what_the_readme_says():
    assert (ACCOUNT_MOST, ACCOUNT_WINDOW) == (10, 15 * 60)
    assert (ADDRESS_MOST, ADDRESS_WINDOW) == (30, 15 * 60)


def test_after_too_many_failures_on_one_account_even_the_right_password_waits(client, owner):
    # Each wrong guess from another address: the account's own count stops them.
    for i in range(ACCOUNT_MOST):
        assert log_in(client, "ana", f"guess-{i}", address=f"203.0.113.{i}").status_code == 200
    refused = log_in(client, "ana", PASSWORD, address="192.0.2.200")
    assert_refused(refused)
    assert not logged_in(client)
    # Still locked a minute before the window ends ...
    time_passes(ACCOUNT_WINDOW - 60)
    assert_refused(log_in(client, "ana", PASSWORD, address="192.0.2.201"))
    # ... and open once it has passed.
    time_passes(61)
    assert log_in(client, "ana", PASSWORD, address="192.0.2.202").status_code == 302
    assert logged_in(client)


def test_the_31st_wrong_login_from_one_address_is_refused_even_with_the_right_password(client, owner):
    # Thirty wrong logins from one address, spread over many names so no account runs out first.
    for i in range(ADDRESS_MOST):
        assert log_in(client, f"someone-{i}", "guess").status_code == 200
    assert_refused(log_in(client, "ana", PASSWORD))
    assert not logged_in(client)
    # Another address is not concerned.
    assert log_in(client, "ana", PASSWORD, address="192.0.2.9").status_code == 302
    client.logout()
    time_passes(ADDRESS_WINDOW + 1)
    assert log_in(client, "ana", PASSWORD).status_code == 302


def test_a_locked_account_does_not_lock_the_others(client, owner, member):
    for i in range(ACCOUNT_MOST):
        log_in(client, "ana", "guess", address=f"203.0.113.{i}")
    assert log_in(client, "bruno", PASSWORD, address="203.0.113.99").status_code == 302


def test_an_unknown_name_is_locked_exactly_like_a_real_one(client, owner):
    """The lock counts the name typed, so it tells nobody whether that name has an account."""
    for name in ("ana", "nobody-here"):
        for i in range(ACCOUNT_MOST):
            log_in(client, name, "guess", address=f"203.0.113.{i}")
    real, unknown = (log_in(client, name, "guess", address="192.0.2.1") for name in ("ana", "nobody-here"))
    assert real.status_code == unknown.status_code == 429
    assert real.context["form"].errors == unknown.context["form"].errors


def test_a_refused_attempt_is_not_counted_so_the_lock_ends_on_time(client, owner):
    for i in range(ACCOUNT_MOST):
        log_in(client, "ana", "guess", address=f"203.0.113.{i}")
    counted = LimitHit.objects.count()
    for _ in range(5):
        assert log_in(client, "ana", "guess", address="192.0.2.1").status_code == 429
    assert LimitHit.objects.count() == counted


def test_a_success_clears_the_accounts_failures_but_not_the_addresss(client, owner):
    for i in range(ACCOUNT_MOST - 1):
        log_in(client, "ana", "guess")
    assert log_in(client, "ana", PASSWORD).status_code == 302
    client.logout()
    # Her account starts again from nothing ...
    for i in range(ACCOUNT_MOST - 1):
        assert log_in(client, "ana", "guess", address="192.0.2.50").status_code == 200
    assert log_in(client, "ana", PASSWORD, address="192.0.2.50").status_code == 302
    # ... while the first address keeps its 9 failures: 21 more reach its limit.
    client.logout()
    for i in range(ADDRESS_MOST - (ACCOUNT_MOST - 1)):
        log_in(client, f"someone-{i}", "guess")
    assert log_in(client, "ana", PASSWORD).status_code == 429


def test_a_password_reset_lifts_the_lock_on_the_account(client, owner):
    from accounts.services import user_password_changed

    for i in range(ACCOUNT_MOST):
        log_in(client, "ana", "guess", address=f"203.0.113.{i}")
    owner.set_password("a-brand-new-password-1")
    owner.save()
    user_password_changed(user=owner, how="reset")
    assert log_in(client, "ana", "a-brand-new-password-1", address="192.0.2.1").status_code == 302


def test_nothing_stored_names_the_account_or_the_address(client, owner):
    log_in(client, "ana", "guess", address="198.51.100.7")
    keys = list(LimitHit.objects.values_list("key", flat=True))
    assert len(keys) == 2
    assert all("ana" not in k and "198.51" not in k and len(k) == 64 for k in keys)


def test_the_admin_login_is_limited_too(client, owner):
    for i in range(ACCOUNT_MOST):
        log_in(client, "ana", "guess", address=f"203.0.113.{i}")
    owner.is_staff = True
    owner.save()
    r = client.post("/admin/login/", {"username": "ana", "password": PASSWORD}, REMOTE_ADDR="192.0.2.1")
    assert r.status_code == 200 and not logged_in(client)


# --- the client's address ---------------------------------------------------------------------


def request_from(remote: str, forwarded: str = ""):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    return RequestFactory().get("/", REMOTE_ADDR=remote, **extra)


def test_without_proxies_the_forwarded_header_is_ignored(settings):
    settings.TOPOS_TRUSTED_PROXIES = 0
    assert client_address(request_from("198.51.100.7", "1.2.3.4")) == "198.51.100.7"


def test_behind_one_proxy_the_address_it_saw_counts_and_a_forged_one_does_not(settings):
    settings.TOPOS_TRUSTED_PROXIES = 1
    # The client forged "1.2.3.4"; the proxy appended the address it really saw.
    assert client_address(request_from("10.0.0.2", "1.2.3.4, 198.51.100.7")) == "198.51.100.7"
    settings.TOPOS_TRUSTED_PROXIES = 2
    assert client_address(request_from("10.0.0.2", "1.2.3.4, 198.51.100.7, 10.0.0.1")) == "198.51.100.7"


def test_ipv6_addresses_count_by_their_64_network(settings):
    settings.TOPOS_TRUSTED_PROXIES = 0
    one = client_address(request_from("2001:db8:1:2::1"))
    assert one == client_address(request_from("2001:db8:1:2:ffff::9")) == "2001:db8:1:2::/64"
    assert one != client_address(request_from("2001:db8:1:3::1"))
    assert client_address(request_from("::ffff:198.51.100.7")) == "198.51.100.7"


def test_the_limit_follows_the_proxys_address(client, owner, settings):
    settings.TOPOS_TRUSTED_PROXIES = 1
    for i in range(ADDRESS_MOST):
        client.post(
            reverse("login"),
            {"username": f"someone-{i}", "password": "guess"},
            REMOTE_ADDR="10.0.0.2",
            HTTP_X_FORWARDED_FOR=f"9.9.9.{i}, 198.51.100.7",
        )
    blocked = client.post(
        reverse("login"),
        {"username": "ana", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="198.51.100.7",
    )
    other = client.post(
        reverse("login"),
        {"username": "ana", "password": PASSWORD},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="198.51.100.8",
    )
    assert blocked.status_code == 429 and other.status_code == 302


# --- housekeeping -----------------------------------------------------------------------------


def test_beat_purges_the_uses_no_window_counts_any_more(client, owner):
    from accounts import tasks

    log_in(client, "ana", "guess")  # one use for the account, one for the address
    time_passes(ACCOUNT_WINDOW + 1)
    log_in(client, "ana", "guess")
    LimitHit.objects.create(rule="a-rule-since-removed", key="x" * 64)
    assert tasks.limit_hits_purge() == 2  # the old two; the removed rule's use is still young
    assert LimitHit.objects.count() == 3
    time_passes(3600 + 1)
    assert tasks.limit_hits_purge() == 3

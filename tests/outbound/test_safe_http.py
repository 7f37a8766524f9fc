"""Server-side request forgery (decision 29): a webhook or push address is refused unless every address its host
resolves to is public (IPv4 and IPv6, an IPv4 address inside IPv6 judged as itself), the connection goes to the
address checked, no redirect is followed, and the exchange is bounded in time.  The local receivers of the other
tests are reached only through the test-only allowance, which production settings never keep."""

from __future__ import annotations

import ipaddress
import socket

import pytest

from games.errors import BadRequest
from outbound import safe_http, services
from outbound.models import WebhookEndpoint
from tests.config.test_settings import PRODUCTION, REAL_KEY, settings_value

DB = pytest.mark.django_db(transaction=True)

NOT_PUBLIC = [
    "127.0.0.1",
    "127.255.0.9",
    "10.0.0.1",
    "10.255.255.254",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",  # the cloud metadata service
    "100.64.0.1",  # carrier-grade NAT
    "0.0.0.0",
    "224.0.0.1",
    "240.0.0.1",
    "255.255.255.255",
    "192.0.2.1",
    "::1",
    "::",
    "fe80::1",
    "fc00::1",
    "fd12:3456::1",
    "ff02::1",
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:10.0.0.1",
    "::ffff:169.254.169.254",
    "::127.0.0.1",  # IPv4-compatible
    "64:ff9b::7f00:1",  # NAT64 of 127.0.0.1
    "2002:7f00:1::1",  # 6to4 of 127.0.0.1
    "2001:db8::1",  # documentation
]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_no_private_loopback_link_local_multicast_reserved_or_unspecified_address_is_public(address):
    assert not safe_http.is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:1.1.1.1"])
def test_public_addresses_are_public(address):
    assert safe_http.is_public(ipaddress.ip_address(address))


@DB
@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/hook",
        "http://127.0.0.1:8000/",
        "http://10.0.0.5/hook",
        "http://10.1.2.3:9000/",
        "http://[::1]/hook",
        "http://[::ffff:127.0.0.1]/",
        "http://169.254.169.254/latest/meta-data/",
        "http://0.0.0.0/",
        "http://localhost:8000/",  # resolved: loopback
        "http://2130706433/",  # 127.0.0.1 written as one number
    ],
)
def test_a_webhook_to_a_private_address_is_refused_and_nothing_is_kept(member, url):
    with pytest.raises(BadRequest) as refused:
        services.webhook_create(user=member, url=url)
    assert refused.value.field == "url"
    assert not WebhookEndpoint.objects.exists()


@DB
@pytest.mark.parametrize(
    "url", ["ftp://example.com/", "file:///etc/passwd", "gopher://example.com/", "http://user:pw@example.com/", "x"]
)
def test_only_http_and_https_without_credentials(member, url):
    with pytest.raises(BadRequest):
        services.webhook_create(user=member, url=url)


@DB
def test_the_allowance_is_what_lets_the_local_receiver_through(member, receiver, settings):
    settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS = []
    with pytest.raises(BadRequest):
        services.webhook_create(user=member, url=receiver.url)
    settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    assert services.webhook_create(user=member, url=receiver.url)


@DB
def test_an_address_that_became_private_is_refused_when_sending_and_not_retried(member, receiver, settings):
    settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    hook = services.webhook_create(user=member, url=receiver.url)
    settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS = []
    log = services.webhook_test(user=member, endpoint_id=hook.pk)
    log.refresh_from_db()
    assert (log.status, log.attempts) == ("failed", 1)
    assert "private network" in log.last_error
    assert receiver.received == []


def test_the_host_is_resolved_once_and_the_checked_address_is_the_one_connected(receiver, settings, monkeypatch):
    """No DNS rebinding: a second answer (here: 10.0.0.1) is never asked for; the request still names the host."""
    settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    real, asked = socket.getaddrinfo, []
    port = receiver.server.server_address[1]

    def rebinding(host, *args, **kwargs):  # stands for a DNS server that changes its answer (none here to run)
        asked.append(host)
        target = "127.0.0.1" if len(asked) == 1 else "10.0.0.1"
        return real(target, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    answer = safe_http.post(f"http://hooks.example:{port}/x", b"{}", {"Content-Type": "application/json"})
    assert answer.status == 201
    assert asked == ["hooks.example"]
    assert receiver.received[0].headers["Host"] == f"hooks.example:{port}"


@DB
def test_a_redirect_is_an_answer_not_followed(member, receiver, local_allowed):
    receiver.statuses = [302]
    hook = services.webhook_create(user=member, url=receiver.url)
    log = services.webhook_test(user=member, endpoint_id=hook.pk)
    log.refresh_from_db()
    assert (log.status, log.last_status) == ("pending", 302)
    assert len(receiver.received) == 1


def test_an_address_that_never_answers_is_given_up_in_bounded_time(settings):
    settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.TOPOS_OUTBOUND_TIMEOUT_SECONDS = 1
    silent = socket.create_server(("127.0.0.1", 0))  # the kernel accepts; nobody ever answers
    try:
        with pytest.raises(OSError):
            safe_http.post(f"http://127.0.0.1:{silent.getsockname()[1]}/", b"{}", {})
    finally:
        silent.close()


def test_the_allowance_is_empty_by_default_and_in_production_whatever_the_environment():
    assert settings_value("settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS", DEBUG="true") == "[]"
    env = {**PRODUCTION, "SECRET_KEY": REAL_KEY, "ALLOWED_HOSTS": "topos.example"}
    assert settings_value("settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS", **env) == "[]"
    assert (
        settings_value("settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS", TOPOS_OUTBOUND_ALLOWED_NETWORKS="0.0.0.0/0", **env)
        == "[]"
    )

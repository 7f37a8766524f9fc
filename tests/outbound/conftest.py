"""Fixtures of the push and webhook tests: inline tasks, a local receiver the site may post to (the test-only
allowance, TOPOS_OUTBOUND_ALLOWED_NETWORKS, which is empty everywhere else), a VAPID key of the test's own."""

from __future__ import annotations

import pytest

from tests.outbound.receiver import Receiver


@pytest.fixture(autouse=True)
def celery_in_process(celery_eager):
    """Tasks run inline; a countdown does not wait (a retry is found early and left for `later`)."""


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://topos.example"


@pytest.fixture
def local_allowed(settings):
    """The test-only allowance: the local receiver on 127.0.0.1 may be posted to."""
    settings.TOPOS_OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]


@pytest.fixture
def receiver():
    running = Receiver().start()
    yield running
    running.stop()


@pytest.fixture(autouse=True)
def vapid_key(settings, tmp_path):
    """A key pair of this test's own, kept in a file as the embedded default keeps it."""
    settings.TOPOS_VAPID_PRIVATE_KEY = ""
    settings.TOPOS_VAPID_KEY_FILE = str(tmp_path / "vapid-private.pem")
    return tmp_path / "vapid-private.pem"

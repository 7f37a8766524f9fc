"""Fixtures of the streams' tests wherever they sit (tests/feed, tests/chat, tests/integration): quick in-process
streams; real worker processes and the test Redis, as the integration tests start them.  A plugin registered in
tests/conftest.py, so a test that moves to the folder of the app it tests keeps them."""

from __future__ import annotations

import pytest

from feed import stream
from tests.integration.conftest import embedded_worker, postgres, redis_broker, start_worker  # noqa: F401


@pytest.fixture
def short_streams(monkeypatch):
    """The in-process streams look for news every 50 ms instead of every second or so: quick tests."""
    monkeypatch.setattr(stream, "POLL_SECONDS", 0.05)

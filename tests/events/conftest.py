"""Fixtures of the event-feed tests: quick in-process streams; real worker processes and the test Redis, as the
integration tests start them."""

from __future__ import annotations

import pytest

from games.feed import stream
from tests.integration.conftest import embedded_worker, postgres, redis_broker, start_worker  # noqa: E402,F401


@pytest.fixture
def short_streams(monkeypatch):
    """The in-process streams look for news every 50 ms instead of every second or so: quick tests."""
    monkeypatch.setattr(stream, "POLL_SECONDS", 0.05)

"""Fixtures of the event-feed tests: real worker processes and the test Redis, as the integration tests start them."""
from __future__ import annotations

from tests.integration.conftest import embedded_worker, postgres, redis_broker, start_worker  # noqa: E402,F401

"""Fixtures a test asks for by name wherever it sits, which a folder's conftest.py gives its own tests unasked
(tests/notifications/, tests/outbound/).  A plugin registered in tests/conftest.py."""

from __future__ import annotations

import pytest


@pytest.fixture
def site_url(settings):
    """The site's address, which mails and pushes put in their links."""
    settings.SITE_URL = "https://topos.example"

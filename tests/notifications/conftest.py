"""Fixtures for the notification, deadline and bot-task tests: in-process Celery, the site's address."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def celery_in_process(celery_eager):
    """These tests follow a task's effects in this process: tasks run inline, bots answer at once."""


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://topos.example"

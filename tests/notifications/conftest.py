"""Fixtures for the notification, deadline and bot-task tests: in-process Celery, the site's address, fast logins."""
from __future__ import annotations

import pytest

from config.celery import app


@pytest.fixture(autouse=True)
def celery_in_process(settings):
    """The embedded default, whatever the environment says: tasks run inline, bots answer at once."""
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    settings.TOPOS_BOT_DELAY_SCALE = 0
    yield
    app.conf.task_always_eager = saved


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://topos.example"


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    # Personas are created with a password; the real hasher is slow and nothing here tests it.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

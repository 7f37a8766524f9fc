"""Browser-test fixtures: one headless Chromium per module, pages that collect JavaScript errors, a screenshots folder.

Run with `pytest -m browser tests/browser`; needs Debian's Chromium at /usr/bin/chromium.
Set TOPOS_SCREENSHOTS=/some/dir to keep the screenshots.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.browser.helpers import ARGS, CHROMIUM, playwright_sync


@pytest.fixture(scope="module")
def browser():
    if playwright_sync is None:
        pytest.skip("Playwright is not installed")
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Chromium is not installed")
    with pytest.MonkeyPatch.context() as mp:
        # Playwright's sync API runs an event loop in this thread; the test's own ORM calls are still
        # synchronous.  Only while the browser runs: a subprocess started by a later test (manage.py
        # check --deploy) must not inherit it.
        if "DJANGO_ALLOW_ASYNC_UNSAFE" not in os.environ:
            mp.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with playwright_sync.sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield b
            b.close()


class Pages:
    """Opens pages, each in a fresh browser context, and keeps every JavaScript error they raise."""

    def __init__(self, browser):
        self.browser = browser
        self.errors: list[str] = []
        self.contexts = []

    def open(self, **context_options):
        context = self.browser.new_context(**context_options)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser):
    opened = Pages(browser)
    yield opened
    opened.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("TOPOS_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder

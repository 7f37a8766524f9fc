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

BROWSER_TESTS = Path(__file__).parent


def pytest_collection_modifyitems(items):
    """Under pytest-xdist (`--dist loadgroup`, config/scripts/test.sh) the browser tests all run on one worker, one
    module after the other: each module starts one Chromium and one Celery worker, which a worker running a
    module's tests split with another would start twice; and two Chromiums at once would double the memory."""
    for item in items:
        if BROWSER_TESTS in Path(item.path).parents:
            item.add_marker(pytest.mark.xdist_group("browser"))


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
    """Opens pages, each in a fresh browser context, and keeps every JavaScript error they raise.

    The pages run under the site's Content-Security-Policy, which forbids eval: a test waits with
    `page.wait_for_function("() => ...")` (a function, compiled once by Playwright), never a bare
    expression string, which Playwright evaluates in the page at every poll.
    """

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


@pytest.fixture(scope="module", autouse=True)
def embedded_worker(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """A real `celery worker -B` on the embedded default's filesystem broker, sharing the test database.

    The site runs no task inside a request, so bots answer only because this worker plays them,
    as beside `runserver` in `config/scripts/run.sh`.  A module may set `BOT_DELAY_SCALE` (default
    0.2: quick tests) to let its bots take a person's full reaction time (1), and `WORKER_ENV` for more of the
    worker's settings (a short TOPOS_TURN_MAIL_GRACE_SECONDS).
    """
    from tests.conftest import TEST_BROKER
    from tests.integration.workers import Worker

    scale = getattr(request.module, "BOT_DELAY_SCALE", 0.2)
    # Messages left by earlier tests name games that no longer exist; the filesystem transport takes
    # one message per poll, so a backlog of them would hold this module's tasks up for minutes.
    for stale in (TEST_BROKER / "queue").glob("*.msg"):
        stale.unlink(missing_ok=True)
    with django_db_blocker.unblock():
        worker = Worker(
            request.module.__name__.rsplit(".", 1)[-1],
            tmp_path_factory.mktemp("worker") / "worker.log",
            broker_dir=TEST_BROKER,
            TOPOS_BOT_DELAY_SCALE=scale,
            **getattr(request.module, "WORKER_ENV", {}),
        )
        try:
            worker.wait_ready()
        except AssertionError:
            worker.stop()
            raise
    yield worker
    worker.stop()

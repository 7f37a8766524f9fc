"""One step of the replay page at 1,000 plies (decision 26, goal: at most 100 ms a step): the server's answer and the
step in the page.

Builds a finished Toppo game of about 1,000 engine actions (bench_replay.build_game: Toppo is the game here that
reaches that length; random legal decisions, written to the log as the site writes it) in a throwaway database,
serves it with Django's live server (the site's own pages, static files and scripts), then:
  server   the fragment a step fetches (GET /tables/<id>/replay/?ply=N&part=step), walked ply after ply from the
           middle, and the whole page for comparison;
  page     headless Chromium (Playwright) on the replay page: the right arrow pressed, each press timed from the
           key to the new board in place (window.toposReplay.stepMs, measured by static/js/replay.js, and the
           round trip seen by the script); "at once" steps as soon as the last one is shown, "paced" waits
           --pace ms between steps, as a person reading the board does (the next positions are fetched ahead).
Prints the median and the 95th percentile of each.

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos_x .venv/bin/python bench/bench_replay_steps.py
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's loop in this thread; the ORM is done by then

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

logging.getLogger("topos.request").setLevel(logging.WARNING)  # one line a request would bury the figures

from bench.scratch_database import scratch_database  # noqa: E402


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def show(name: str, values: list[float]) -> None:
    print(
        f"{name:<44} median {statistics.median(values):6.1f} ms   p95 {p95(values):6.1f} ms   "
        f"max {max(values):6.1f} ms   ({len(values)} steps)"
    )


def timed_get(url: str) -> float:
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as answer:
        answer.read()
    return (time.perf_counter() - start) * 1000


def server_steps(base: str, start: int, steps: int) -> tuple[list[float], list[float]]:
    fragments = [timed_get(f"{base}?ply={start + i}&part=step") for i in range(steps)]
    pages = [timed_get(f"{base}?ply={start + i}") for i in range(0, steps, 5)]
    return fragments, pages


def page_steps(page, steps: int, pause_ms: int) -> tuple[list[float], list[float], list[float]]:
    """Press the right arrow `steps` times; (the page's own step time, the script's key-to-board time, the time
    the swap itself took once the position was there)."""
    inside, outside, swaps = [], [], []
    for _ in range(steps):
        ply = int(page.locator("#replay").get_attribute("data-ply"))
        start = time.perf_counter()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(
            "(ply) => document.getElementById('replay').dataset.ply === String(ply)", arg=ply + 1, polling="raf"
        )
        outside.append((time.perf_counter() - start) * 1000)
        shown = page.evaluate("() => window.toposReplay")
        inside.append(shown["stepMs"])
        swaps.append(shown["swapMs"])
        if pause_ms:
            page.wait_for_timeout(pause_ms)
    return inside, outside, swaps


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--pace", type=int, default=300, help="ms between paced steps")
    args = parser.parse_args()
    from django.test.testcases import LiveServerThread, _StaticFilesHandler

    from bench.bench_replay import build_game
    from games.selectors import replay
    from tests.browser.helpers import ARGS, CHROMIUM, playwright_sync

    with scratch_database("replay_steps"):
        game = build_game(args.actions, random.Random(11))
        plies = replay.plies_of(game)
        server = LiveServerThread("127.0.0.1", _StaticFilesHandler, connections_override=None, port=0)
        server.daemon = True
        server.start()
        server.is_ready.wait()
        if server.error:
            raise server.error
        base = f"http://127.0.0.1:{server.port}/tables/{game.pk}/replay/"
        try:
            print(f"{connection.vendor}: a finished Toppo game of {plies} plies (checkpoint every {replay.EVERY})")
            print(f"cold: the last ply's fragment {timed_get(f'{base}?ply={plies}&part=step'):.1f} ms (checkpoints)")
            middle = plies // 2
            fragments, pages = server_steps(base, middle, args.steps)
            show("server: a step's fragment (?part=step)", fragments)
            show("server: the whole page (before: every step)", pages)
            if playwright_sync is None:
                print("page: Playwright is not installed")
                return
            with playwright_sync.sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                for label, pause in (("at once", 0), (f"paced {args.pace} ms", args.pace)):
                    page.goto(f"{base}?ply={middle}")
                    page.wait_for_timeout(1000)  # the first positions ahead are fetched
                    inside, outside, swaps = page_steps(page, args.steps, pause)
                    show(f"page, {label}: key to board (replay.js)", inside)
                    show(f"page, {label}: of which the swap", swaps)
                    show(f"page, {label}: key to board (seen by script)", outside)
                browser.close()
            print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        finally:
            server.terminate()


if __name__ == "__main__":
    main()

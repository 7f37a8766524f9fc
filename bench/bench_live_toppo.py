"""Live Toppo against bots, played by a person at a person's pace through the page (decision 26).

Starts the site (runserver) and a real Celery worker on the embedded default (SQLite, the filesystem broker),
bots at their full reaction time (TOPOS_BOT_DELAY_SCALE=1).  For each bot level asked, a person in Chromium
plays one-hand live matches against one bot of that level, clicking every 1-2 s and claiming with the claims
the page found for her (tests/browser/live_toppo_player.py).  Prints, per level, the person's and the bot's
claim times (from the moment a claim became possible: her line full, or the display changed, to the claim;
median and p95) and the share of claims each won.

    .venv/bin/python bench/bench_live_toppo.py                           # beginner and greedy, 2 matches each
    .venv/bin/python bench/bench_live_toppo.py --levels strong --matches 1 --seconds 240
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench import site_processes  # noqa: E402
from tests.deploy.served import free_port  # noqa: E402
from tests.integration.workers import celery_worker_command  # noqa: E402

PYTHON = sys.executable


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", default=["beginner", "greedy"])
    parser.add_argument("--matches", type=int, default=2, help="matches per level")
    parser.add_argument("--seconds", type=float, default=420, help="longest a match is played")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="bench-live-toppo-"))
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="false",
        TOPOS_ALLOW_DEV_SECRET="true",
        TOPOS_BROKER_DIR=str(folder / "broker"),
        TOPOS_CACHE_DIR=str(folder / "cache"),
        DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite3'}",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        LOG_LEVEL="WARNING",
        TOPOS_BOT_DELAY_SCALE="1",
    )
    site_processes.migrate(env)
    os.environ.clear()
    os.environ.update(env)  # this process creates the tables: the site's database and broker
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs a loop in this thread
    import django

    django.setup()
    from playwright.sync_api import sync_playwright

    from games import services
    from games.models import Action, Game
    from tests.browser.helpers import ARGS, CHROMIUM, add_person, log_in
    from tests.browser.live_toppo_player import Figures, claim_figures, play_at_a_persons_pace

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # killed: still stop the site (finally below)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = folder / "processes.log"
    processes = [
        site_processes.start([PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"], log, env),
        site_processes.start(
            celery_worker_command("--without-heartbeat", concurrency=2, log_level="warning"), log, env
        ),
    ]
    try:
        site_processes.wait_answering(base, "/", 120)
        time.sleep(2)  # the worker's start-up
        ana = add_person("bench-ana")
        print(
            f"{'bot':<9} {'match':>5} {'claims':>6}  {'person: share, claim time':<40} {'bot: share, claim time':<40}"
        )
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context(viewport={"width": 1200, "height": 950}).new_page()
            log_in(page, base, "bench-ana")
            for level in args.levels:
                mine: list[float] = []
                theirs: list[float] = []
                for match in range(1, args.matches + 1):
                    game = services.game_create(
                        user=ana,
                        kind="toppo",
                        players=2,
                        options={"hands": 1},
                        pace="live",
                        turn_seconds=60,
                        bots=[level],
                    )
                    game = services.game_start(user=ana, game_id=game.pk)
                    me = game.seats.get(user=ana).index
                    page.goto(f"{base}/tables/{game.pk}/")
                    play_at_a_persons_pace(page, seconds=args.seconds, seed=match)
                    rows = Action.objects.filter(game_id=game.pk).order_by("seq")
                    figures = claim_figures(rows.values_list("seat", "action", "created_at"))
                    status = Game.objects.get(pk=game.pk).status
                    mine += figures.claims.get(me, [])
                    theirs += figures.claims.get(1 - me, [])
                    print(
                        f"{level:<9} {match:>5} {figures.total():>6}  "
                        f"{figures.share(me):>4.0%} {figures.spread(figures.claims.get(me, [])):<34} "
                        f"{figures.share(1 - me):>4.0%} {figures.spread(figures.claims.get(1 - me, []))}"
                        f"{'' if status == 'finished' else '  (stopped: ' + status + ')'}"
                    )
                total = len(mine) + len(theirs)
                share = len(mine) / total if total else 0.0
                print(
                    f"{level:<9} {'all':>5} {total:>6}  {share:>4.0%} {Figures.spread(mine):<34} "
                    f"{1 - share if total else 0:>4.0%} {Figures.spread(theirs)}"
                )
            browser.close()
    finally:
        site_processes.stop(processes, 20)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()

"""How long one position of a long game takes to build (games.selectors.replay): cold, then through checkpoints.

Builds a finished Toppo game of about 1,000 engine actions (random legal decisions, written to the
log as the site writes it) in a throwaway test database, then asks for random plies:
  cold  no checkpoint yet: the first request replays from the start and writes the checkpoints;
  warm  every later request: one checkpoint load plus at most EVERY - 1 applies.

    DEBUG=true .venv/bin/python bench/bench_replay.py                # SQLite
    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/topos_replay .venv/bin/python bench/bench_replay.py
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from bench.scratch_database import scratch_database  # noqa: E402


def build_game(target: int, rng: random.Random):
    """A finished Toppo table whose log holds about `target` engine actions."""
    from accounts.models import User
    from games.models import Action, Game
    from games.selectors.positions import load_state
    from games.services import game_create, game_join, game_start

    ana = User.objects.create_user("bench-ana", "ana@example.com", "a-long-bench-password")
    bruno = User.objects.create_user("bench-bruno", "bruno@example.com", "a-long-bench-password")
    for hands in range(3, 21):
        game = game_create(user=ana, kind="toppo", players=2, options={"hands": hands})
        game_join(user=bruno, game_id=game.pk)
        game = game_start(user=ana, game_id=game.pk)
        state, rows = load_state(game), []
        while not state.is_over():
            seat = rng.choice(state.to_act())
            action = rng.choice([a for a in state.legal_actions(seat) if a.get("type") != "undo"])
            state.apply(seat, action)
            rows.append(Action(game=game, seq=len(rows) + 1, seat=seat, action=action))
        if len(rows) >= target or hands == 20:
            Action.objects.bulk_create(rows)
            Game.objects.filter(pk=game.pk).update(
                state=state.to_json(), status=Game.Status.FINISHED, version=len(rows), to_act=[]
            )
            return Game.objects.get(pk=game.pk)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--samples", type=int, default=30)
    args = parser.parse_args()
    with scratch_database("replay"):
        from games.selectors import replay

        rng = random.Random(11)
        game = build_game(args.actions, rng)
        plies = replay.plies_of(game)
        print(f"{connection.vendor}: a finished Toppo game of {plies} engine actions (checkpoint every {replay.EVERY})")

        def timed(ply: int) -> float:
            start = time.perf_counter()
            replay.position_views(game, ply, None)
            return (time.perf_counter() - start) * 1000

        print(f"cold  ply {plies}: {timed(plies):.1f} ms (replays from the start, writes the checkpoints)")
        warm = [timed(rng.randint(0, plies)) for _ in range(args.samples)]
        print(f"warm  {args.samples} random plies: median {statistics.median(warm):.1f} ms, max {max(warm):.1f} ms")


if __name__ == "__main__":
    main()

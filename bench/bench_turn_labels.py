"""What labelling a decision costs (decision 29, games.selectors.turn_labels), per game: the time to sample a position
from the seat's view and rate its candidates, on positions a few random decisions into games, and how the labels fall.

    python bench/bench_turn_labels.py              # 40 positions of each game, 2 and 3 players
    python bench/bench_turn_labels.py --positions 200

No database: the same computation as turn_label without its cache (a label is computed once per table, version
and seat, in the worker's dispatch or a page of the queue).
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

from engine.bots.base import playable  # noqa: E402
from engine.core import all_games  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    import django

    django.setup()
    from games.selectors.turn_labels import DEEP, DEEP_CHOICES, DEEP_SPREAD, FORCED, QUICK, _spread

    class Table:  # what _spread reads of a Game row
        def __init__(self, kind, version):
            self.kind, self.pk, self.version = kind, 1, version

    for kind, engine in sorted(all_games().items()):
        for players in (2, 3):
            rng = random.Random(f"{kind}:{players}")
            timings, labels = [], {FORCED: 0, QUICK: 0, DEEP: 0}
            for n in range(args.positions):
                state = engine.new_state(players, engine.validate_options(players, {}), f"bench{n}")
                for _ in range(rng.randrange(0, 40)):
                    if state.is_over():
                        break
                    seat = state.to_act()[0]
                    state.apply(seat, rng.choice(playable(state, seat)))
                if state.is_over():
                    continue
                seat = state.to_act()[0]
                started = time.perf_counter()
                actions = playable(state, seat)
                if len(actions) == 1 and not state.undoable(seat):
                    label = FORCED
                elif len(actions) > DEEP_CHOICES:
                    label = DEEP
                else:
                    spread = _spread(Table(kind, n), state.view(seat), seat) if len(actions) > 1 else 0.0
                    label = DEEP if spread >= DEEP_SPREAD else QUICK
                timings.append((time.perf_counter() - started) * 1000)
                labels[label] += 1
            print(
                f"{kind:9} {players}p  {len(timings):4} positions  median {statistics.median(timings):7.1f} ms  "
                f"max {max(timings):7.1f} ms  forced {labels[FORCED]:3}  quick {labels[QUICK]:3}  deep {labels[DEEP]:3}"
            )


if __name__ == "__main__":
    main()

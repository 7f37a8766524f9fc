"""Check a finished game's export (ruling G0.2): `python -m engine.verify export.json`.

Plain Python beside the engines, so anyone can run it without the site.  It checks, in order, that
1. the published seed and salt give the commitment published at the start (engine.commitment);
2. the log re-applies, action by action, to a game dealt from the export's kind, options, players and seed
   (the site's leave entries, `"replay": false`, are skipped and only say who left, engine.ranking);
3. the replayed game is over (or ended early because seats left), and the ranks, scores, tie-breaks and winners
   it gives are the ones the site published.
It prints one verdict line and exits 0 when everything matches, 1 at the first mismatch, 2 on an unreadable file.
"""

from __future__ import annotations

import json
import sys

from .commitment import matches
from .core import EngineError, all_games
from .ranking import final_ranks, final_tie_breaks, is_leave, replay_with_leaves, winners


class Mismatch(Exception):
    """The first thing in the export that does not check out."""


def _log(export: dict) -> list[tuple[int, dict]]:
    pairs = []
    for row in export["log"]:
        # The site marks its leave entries; a row claiming to be one must really be one, and the reverse.
        if row.get("replay", True) == is_leave(row["action"]):
            raise Mismatch(f"log entry {row.get('seq')}: its replay flag does not fit its action {row['action']!r}")
        pairs.append((row["seat"], row["action"]))
    return pairs


def verify(export: dict) -> str:
    """The verdict of a good export; raises Mismatch at the first thing that does not match."""
    seed, salt, commitment = export.get("seed") or "", export.get("seed_salt") or "", export.get("seed_commitment")
    if not seed:
        raise Mismatch("the export has no seed: only a finished game can be verified")
    if not commitment:
        raise Mismatch("no commitment to the seed was published for this game")
    if not matches(seed, salt, commitment):
        raise Mismatch("the seed and salt do not give the published commitment")
    kind, players = export["game"], export["players"]
    if kind not in all_games():
        raise Mismatch(f"unknown game {kind!r}")
    try:
        state, leavers = replay_with_leaves(kind, players, export["options"], seed, _log(export))
    except EngineError as exc:
        raise Mismatch(f"the log does not replay: {exc}") from None
    if not state.is_over() and not leavers:
        raise Mismatch("the log does not finish the game")
    ranks = final_ranks(state, players, leavers)
    results = state.results() if state.is_over() else []
    scores = {r.seat: r.score for r in results}
    decided = final_tie_breaks(
        {seat: scores.get(seat) for seat in range(players)}, {r.seat: r.tie_break for r in results}, leavers
    )
    published = {row["seat"]: row for row in export["result"]["ranks"]}
    for seat in range(players):
        row = published.get(seat)
        if row is None:
            raise Mismatch(f"seat {seat} has no published rank")
        if row["rank"] != ranks[seat]:
            raise Mismatch(f"seat {seat}: published rank {row['rank']}, the replay gives {ranks[seat]}")
        if row["score"] != scores.get(seat):
            raise Mismatch(f"seat {seat}: published score {row['score']}, the replay gives {scores.get(seat)}")
        # The rule that broke a tie (decision 24); exports made before it was published have no such key.
        if "tie_break" in row and row["tie_break"] != decided[seat]:
            raise Mismatch(f"seat {seat}: published tie-break {row['tie_break']}, the replay gives {decided[seat]}")
    expected = winners(ranks, leavers)
    if export["result"]["winners"] != expected:
        raise Mismatch(f"published winners {export['result']['winners']}, the replay gives {expected}")
    return (
        f"verified: {kind} table {export.get('table')}, {len(export['log'])} log entries; "
        f"seed matches its commitment; ranks {[ranks[s] for s in range(players)]} and winners {expected} match"
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m engine.verify export.json", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as handle:
            export = json.load(handle)
    except (OSError, ValueError) as exc:
        print(f"cannot read {argv[0]}: {exc}", file=sys.stderr)
        return 2
    try:
        print(verify(export))
    except Mismatch as exc:
        print(f"MISMATCH: {exc}")
        return 1
    except (KeyError, TypeError, AttributeError) as exc:
        print(f"MISMATCH: the export is not in the expected shape ({exc!r})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

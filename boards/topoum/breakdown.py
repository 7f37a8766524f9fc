"""Where each Topoum medal came from (decision 26): the log's own facts, summed per seat and source.

Every change of medals is in the log as data (engine/topoum/events.py): the lines of sight scored at a turn's end,
a card taken from the Line (its slot's value), a mole of her own lost by her own doing (Law of War #5) or the Red
Cross lost, the Press's medal, the Medal of Honor, the farmer's medal, a ransom paid (ruling T21), and once the war
is over the end-of-game scoring (the view's `final`).  So the breakdown is read from the log lines the reader may
read (a turn not yet confirmed is its player's alone, ruling S3) and adds up to the medals her view shows:
10 to start with, plus every source.
"""

from __future__ import annotations

START = 10  # every score marker starts on "10" (Setup)
SOURCES = ("lines", "line_cards", "losses", "press", "honour", "farmer", "ransoms", "final")


def _blank() -> dict[str, int]:
    return dict.fromkeys(SOURCES, 0)


def _changes(seat: int | None, entry: list) -> list[tuple[int, str, int]]:
    """(seat, source, medals) for every change of medals one log entry records; `seat`: who made the decision."""
    out = []
    for phrase in entry or []:
        if not isinstance(phrase, dict):
            continue
        code = str(phrase.get("code", ""))
        if not code.startswith("topoum."):
            continue
        what = code[len("topoum.") :]
        if what == "lines_scored":
            out.append((seat, "lines", int(phrase.get("medals") or 0)))
        elif what == "play" and phrase.get("slot"):
            out.append((phrase.get("seat", seat), "line_cards", int(phrase.get("medals") or 0)))
        elif what == "ransom":
            payer, captor = phrase.get("seat", seat), phrase.get("captor")
            out += [(payer, "ransoms", -3), (captor, "ransoms", 3)]
        elif what == "red_cross_lost":
            out.append((phrase.get("seat", seat), "losses", -5))
        elif phrase.get("penalty"):  # her own mole lost by her own doing: mole_lost, mole_lost_on, collide...
            out.append((seat, "losses", -int(phrase["penalty"])))
        elif what == "press_medal":
            out.append((phrase.get("seat"), "press", 1))
        elif what == "medal_of_honor":
            out.append((seat, "honour", 3))
        elif what == "farmer_medal":
            out.append((phrase.get("seat", seat), "farmer", 1))
    return [(s, source, n) for s, source, n in out if isinstance(s, int) and n]


def fold_start(players: int) -> dict:
    """The breakdown before any log line: plain data (the site may keep it between requests, decision 28)."""
    return {
        "overall": [_blank() for _ in range(players)],
        "turn": [_blank() for _ in range(players)],
        "turn_seat": None,
        "fresh": True,
    }


def fold_copy(acc: dict) -> dict:
    """A copy of `acc` that folding more lines into leaves `acc` as it was (the site keeps one fold for every
    reader, decision 28): its two tables of counts copied, the rest plain values."""
    return {
        "overall": [dict(sources) for sources in acc["overall"]],
        "turn": [dict(sources) for sources in acc["turn"]],
        "turn_seat": acc["turn_seat"],
        "fresh": acc["fresh"],
    }


def fold(acc: dict, rows) -> dict:
    """`acc` with the log lines `rows` added: (seat, entry) in log order, as the reader may read them (withdrawn
    decisions left out).  Folding a log in two parts gives what folding it at once gives."""
    players = len(acc["overall"])
    for seat, entry in rows:
        head = entry[0] if entry and isinstance(entry[0], dict) else {}
        if not head or str(head.get("code", "")).startswith("topoum.setup_"):
            continue  # a seat leaving (the site's line), or the setup: no medals, no turn
        if acc["fresh"]:  # the first line after a turn was confirmed opens the next turn
            acc["turn"], acc["turn_seat"], acc["fresh"] = [_blank() for _ in range(players)], seat, False
        for s, source, n in _changes(seat, entry):
            if 0 <= s < players:
                acc["overall"][s][source] += n
                acc["turn"][s][source] += n
        if head.get("code") == "topoum.end_turn":
            acc["fresh"] = True
    return acc


def fold_result(acc: dict, final: list | None = None) -> dict:
    """Per seat, the medals from each source overall and in the last turn; `final`: the view's end-of-game scoring.

    `last_turn` is the turn in progress when anything of it can be read, else the last one confirmed; `last_seat`
    whose turn that is.  The overall `total` of each seat is START plus its sources: the medals its view shows.
    """
    players = len(acc["overall"])
    overall = [dict(sources) for sources in acc["overall"]]
    turn = acc["turn"]
    for s, detail in enumerate(final or []):
        if s < players and isinstance(detail, dict):
            overall[s]["final"] += int(detail.get("total") or 0)
    return {
        "start": START,
        "sources": list(SOURCES),
        "seats": [
            {
                "seat": s,
                "overall": overall[s],
                "total": START + sum(overall[s].values()),
                "last_turn": turn[s],
                "last_turn_total": sum(turn[s].values()),
            }
            for s in range(players)
        ],
        "last_seat": acc["turn_seat"],
    }


def medal_breakdown(rows, players: int, final: list | None = None) -> dict:
    """The breakdown of a whole log at once (`fold` and `fold_result`)."""
    return fold_result(fold(fold_start(players), rows), final)


def score_breakdown(acc: dict, view: dict | None) -> dict:
    """The site's hook (games.selectors.score_breakdown): the breakdown for a table's detail, from the log folded."""
    return fold_result(acc, view.get("final") if isinstance(view, dict) else None)

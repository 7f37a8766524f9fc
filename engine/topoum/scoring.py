"""Lines of sight (ruling T18), final scoring and ranks (ruling T20)."""

from __future__ import annotations

from engine.core import Result, tie_breaks_of

from .board import BARRACKS, CRATE, FRESH, GAS, ROCK, TRAP, TURNIP, cells_of
from .cards import CATEGORIES, category


def lines(state, seat: int) -> list[tuple[int, int, int]]:
    """Every line of sight of `seat` as (a, b, medals) with a < b."""
    tile, feat, mole, nb, rc = state.tile, state.feat, state.mole, state.geo.nb, state.rc
    mine = BARRACKS + seat
    traps = cells_of(feat, TRAP) if state.farmer == "trap_master" else ()
    out = []
    for a in cells_of(mole, seat):  # her few moles
        for d in (0, 1, 2):  # the other three directions find the same lines from the other end
            squares = 1
            bonus = 1 if tile[a] == mine else 0
            gas = 1 if feat[a] == GAS else 0
            x = nb[a][d]
            while x >= 0:
                t = tile[x]
                if t < 0 or feat[x] == ROCK:
                    break
                squares += 1
                if t == mine:
                    bonus += 1
                if feat[x] == GAS:
                    gas += 1
                o = mole[x]
                if o >= 0:
                    if o == seat:
                        value = squares + bonus - gas
                        for end in (a, x):
                            if feat[end] == TURNIP:
                                value += 2
                            for tr in traps:
                                if tr in nb[end]:
                                    value -= 1
                        out.append((a, x, value) if a < x else (x, a, value))
                    break
                if x == rc:
                    break  # the Red Cross blocks lines except those of the mole on its square (T15)
                x = nb[x][d]
    return out


def line_keys(state, seat: int) -> frozenset:
    return frozenset((a, b) for a, b, _ in lines(state, seat))


def new_lines(state, seat: int) -> list[tuple[int, int, int]]:
    """Lines that score now: not there at the start of the turn, or with a mole moved or placed since."""
    start, flags = state.start_lines, state.mflag
    return [
        ln for ln in lines(state, seat) if (ln[0], ln[1]) not in start or flags[ln[0]] & FRESH or flags[ln[1]] & FRESH
    ]


def category_counts(pile) -> dict[str, int]:
    counts = {k: 0 for k in CATEGORIES}
    for card in pile:
        cat = category(card)
        if cat:
            counts[cat] += 1
    return counts


def final_scores(piles) -> list[dict]:
    """Category majorities (3, or 2 each when tied) and sets of four categories (2 each), ruling T20."""
    counts = [category_counts(p) for p in piles]
    out = [{"categories": 0, "sets": 0, "majorities": []} for _ in piles]
    for cat in CATEGORIES:
        best = max(cnt[cat] for cnt in counts)
        if best < 1:
            continue
        winners = [s for s, cnt in enumerate(counts) if cnt[cat] == best]
        for s in winners:
            out[s]["categories"] += 3 if len(winners) == 1 else 2
            out[s]["majorities"].append(cat)
    for s, cnt in enumerate(counts):
        out[s]["sets"] = 2 * min(cnt.values())
        out[s]["counts"] = cnt
    return out


def finish(state) -> None:
    """End of the game: cards in hand go back to the box, then categories, sets and crates score."""
    detail = final_scores(state.piles)
    for s in range(state.n):
        detail[s]["crates"] = 0
    for x in range(len(state.mole)):
        o, f = state.mole[x], state.feat[x]
        if o >= 0 and f >= CRATE:
            detail[o]["crates"] += state.crate_values[f - CRATE]
    for s in range(state.n):
        gain = detail[s]["categories"] + detail[s]["sets"] + detail[s]["crates"]
        detail[s]["total"] = gain
        state.medals[s] += gain
    state.final = detail
    state.phase = "over"
    state.pending = None


def tiebreak(state, seat: int) -> tuple[int, int, int]:
    """Medals, then barracks of her colour on the battlefield, then cards in her discard pile (T20)."""
    code = BARRACKS + seat
    barracks = sum(1 for x in range(len(state.tile)) if state.tile[x] == code and state.bf[x])
    return (state.medals[seat], barracks, len(state.piles[seat]))


# The tie-break rules after medals, in order (Game.tie_breaks; ruling T20): barracks of her colour on the
# battlefield, then cards in her discard pile; then a shared win.
TIE_BREAKS = ("barracks", "discard_pile")


def results(state) -> list[Result]:
    keys = [tiebreak(state, s) for s in range(state.n)]
    decided = tie_breaks_of(keys, TIE_BREAKS)
    out = []
    for s in range(state.n):
        rank = 1 + sum(1 for k in keys if k > keys[s])
        detail = {"barracks": keys[s][1], "discards": keys[s][2]}
        if state.final:
            detail["final"] = state.final[s]
        out.append(Result(seat=s, rank=rank, score=float(state.medals[s]), detail=detail, tie_break=decided[s]))
    return out

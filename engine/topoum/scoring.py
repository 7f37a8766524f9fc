"""Lines of sight (ruling T18), final scoring and ranks (ruling T20)."""
from __future__ import annotations

from engine.core import Result

from .board import BARRACKS, CRATE, FRESH, GAS, ROCK, TRAP, TURNIP
from .cards import CATEGORIES, category


def lines(st, c: int) -> list[tuple[int, int, int]]:
    """Every line of sight of colour c as (a, b, medals) with a < b."""
    tile, feat, mole, nb, rc = st.tile, st.feat, st.mole, st.geo.nb, st.rc
    mine = BARRACKS + c
    traps = [i for i in range(len(feat)) if feat[i] == TRAP] if st.farmer == "trap_master" else ()
    out = []
    for a in range(len(mole)):
        if mole[a] != c:
            continue
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
                    if o == c:
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


def line_keys(st, c: int) -> frozenset:
    return frozenset((a, b) for a, b, _ in lines(st, c))


def new_lines(st, c: int) -> list[tuple[int, int, int]]:
    """Lines that score now: not there at the start of the turn, or with a mole moved or placed since."""
    start, flags = st.start_lines, st.mflag
    return [ln for ln in lines(st, c)
            if (ln[0], ln[1]) not in start or flags[ln[0]] & FRESH or flags[ln[1]] & FRESH]


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


def finish(st) -> None:
    """End of the game: cards in hand go back to the box, then categories, sets and crates score."""
    detail = final_scores(st.piles)
    for s in range(st.n):
        detail[s]["crates"] = 0
    for x in range(len(st.mole)):
        o, f = st.mole[x], st.feat[x]
        if o >= 0 and f >= CRATE:
            detail[o]["crates"] += st.crate_values[f - CRATE]
    for s in range(st.n):
        gain = detail[s]["categories"] + detail[s]["sets"] + detail[s]["crates"]
        detail[s]["total"] = gain
        st.medals[s] += gain
    st.final = detail
    st.phase = "over"
    st.pending = None


def tiebreak(st, s: int) -> tuple[int, int, int]:
    """Medals, then barracks of her colour on the battlefield, then cards in her discard pile (T20)."""
    code = BARRACKS + s
    barracks = sum(1 for x in range(len(st.tile)) if st.tile[x] == code and st.bf[x])
    return (st.medals[s], barracks, len(st.piles[s]))


def results(st) -> list[Result]:
    keys = [tiebreak(st, s) for s in range(st.n)]
    out = []
    for s in range(st.n):
        rank = 1 + sum(1 for k in keys if k > keys[s])
        detail = {"barracks": keys[s][1], "discards": keys[s][2]}
        if st.final:
            detail["final"] = st.final[s]
        out.append(Result(seat=s, rank=rank, score=float(st.medals[s]), detail=detail))
    return out

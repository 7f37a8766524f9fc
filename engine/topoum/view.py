"""What each seat may see (ruling G0.3), states rebuilt from a view for bots, and secret planting for tests."""
from __future__ import annotations

from . import board as B
from .board import COLOURS, CRATE, FRESH, MOVABLE, STANDALONE
from .cards import COPIES, PEACE
from .events import prompt
from .farmers import CRATE_VALUES
from .scoring import new_lines
from .state import TopoumState


def _public_pending(geo, p):
    if p is None:
        return None
    out = dict(p)
    if "m" in p:
        out["m"] = geo.hex(p["m"])
    if "parts" in p:
        out["parts"] = [[geo.hex(x) for x in part] for part in p["parts"]]
    if "then" in p:
        then = dict(p["then"])
        for k in ("cell", "m"):
            if k in then:
                then[k] = geo.hex(then[k])
        out["then"] = then
    return out


def _private_pending(geo, p):
    if p is None:
        return None
    out = dict(p)
    if "m" in p:
        out["m"] = geo.cell(p["m"])
    if "parts" in p:
        out["parts"] = [[geo.cell(h) for h in part] for part in p["parts"]]
    if "then" in p:
        then = dict(p["then"])
        for k in ("cell", "m"):
            if k in then:
                then[k] = geo.cell(then[k])
        out["then"] = then
    return out


def board_cells(st, seat) -> list[dict]:
    """The occupied or tiled spaces; crate values only for those who looked (or at the end)."""
    geo = st.geo
    tile, feat, mole, bf, flags = st.tile, st.feat, st.mole, st.bf, st.mflag
    over = st.phase == "over"
    out = []
    for x in range(geo.size):
        t = tile[x]
        if t < 0 and st.rc != x:
            continue
        cell = {"hex": geo.hex(x)}
        if t >= 0:
            if t == STANDALONE:
                cell["tile"], cell["colour"] = "standalone", None
            else:
                cell["tile"] = "barracks" if t >= B.BARRACKS else "neutral"
                cell["colour"] = t & 3
            cell["outpost"] = not bf[x]
        f = feat[x]
        if f >= CRATE:
            k = f - CRATE
            cell["feature"] = "crate"
            cell["crate"] = k
            cell["seen_by"] = [s for s in range(st.n) if k in st.crate_known[s]]
            if over or (seat is not None and k in st.crate_known[seat]):
                cell["value"] = st.crate_values[k]
        elif f:
            cell["feature"] = B.FEATURE_NAMES[f]
        if mole[x] >= 0:
            cell["mole"] = mole[x]
            if flags[x] & MOVABLE:
                cell["movable"] = True
            if flags[x] & FRESH:
                cell["fresh"] = True
        if st.rc == x:
            cell["red_cross"] = True
        out.append(cell)
    return out


def public_part(st, me) -> dict:
    """Everything on the table that every seat sees (the board, medals, reserves, Line, pile tops...)."""
    geo = st.geo
    v = {
        "game": "topoum",
        "players": st.n,
        "colours": list(COLOURS[:st.n]),
        "options": {k: st.opts[k] for k in ("radius", "types", "line_values", "obstacles", "farmer")},
        "farmer": st.farmer,
        "phase": st.phase,
        "step": st.step,
        "order": list(st.order),
        "start": st.start,
        "current": st.cur if st.phase != "over" else None,
        "to_act": st.to_act(),
        "board": board_cells(st, me),
        "red_cross": geo.hex(st.rc) if st.rc >= 0 else None,
        "medals": list(st.medals),
        "reserve": {"moles": list(st.moles_left), "tiles": list(st.tiles_left)},
        "prisoners": [row[:] for row in st.prisoners],
        "press": st.press if st.press >= 0 else None,
        "farmer_tiles_beside": st.pool,
        "obstacle_tiles_left": {"puddle_rock": st.obst_left[0], "ice_gas": st.obst_left[1]},
        "crates_total": len(st.crate_values),
        "dynamite_pending": st.dyn_pending,
        "deck_size": len(st.deck),
        "line": list(st.line),
        "trash": list(st.trash),
        "hand_sizes": [len(h) for h in st.hands],
        "piles": [{"size": len(p), "top": p[-1] if p else None} for p in st.piles],
        "peace": st.peace,
        "last_seat": (st.start - 1) % st.n,
        "turns": st.turns,
        "turn": {
            "stage": st.stage,
            "pending": _public_pending(geo, st.pending),
            "hand_used": st.hand_used,
            "line_used": [k + 1 for k in st.line_used],
            "start_lines": [[geo.hex(a), geo.hex(b)] for a, b in sorted(st.start_lines)],
            "log": [dict(a) for a in st.turn_log],
            "undo_floor": st.undo_floor,
        },
        "decision": {"seat": st.cur, "prompt": prompt(st)} if st.phase != "over" else None,
    }
    if st.phase == "play":
        v["new_lines"] = [{"from": geo.hex(a), "to": geo.hex(b), "medals": val}
                          for a, b, val in new_lines(st, st.cur)]
    return v


def view(st, seat) -> dict:
    """Everything `seat` (None: a spectator) may see, plus what the page needs for the current decision."""
    me = seat if isinstance(seat, int) and 0 <= seat < st.n else None
    if st.unconfirmed_seat() not in (None, me) and st.snap is not None:
        # Ruling S3 (amended): her turn is hers until she confirms it; the others see it as it began
        # (turn_start too, as they saw it before her first decision).
        v = view(st.snap, seat)
        v["turn_start"] = public_part(st.snap, me)
        return v
    v = public_part(st, me)
    v["seat"] = me
    if me is not None:
        v["hand"] = list(st.hands[me])
        v["pile"] = list(st.piles[me])
        v["crates_known"] = {str(k): st.crate_values[k] for k in st.crate_known[me]}
        mine = st.phase != "over" and me == st.cur
        v["legal"] = st.legal_actions(me) if mine else []
        v["undoable"] = st.undoable(me)
    # The table as it was when this turn began (public): lets a bot's sampled state take back too.
    v["turn_start"] = public_part(st.snap, me) if st.snap is not None and st.phase == "play" else None
    if st.phase == "over":
        v["final"] = st.final
        v["crate_values"] = list(st.crate_values)
        v["results"] = [r.to_json() for r in st.results()]
    return v


def _build_public(v: dict, seed):
    """A state holding the public part of a view; hidden parts are filled by the caller."""
    n = v["players"]
    opts = dict(v["options"])
    st = TopoumState(n, opts, seed)
    geo = st.geo
    st.farmer = v["farmer"]
    for cell in v["board"]:
        x = geo.cell(cell["hex"])
        kind = cell.get("tile")
        if kind == "standalone":
            st.tile[x] = STANDALONE
        elif kind:
            st.tile[x] = cell["colour"] + (B.BARRACKS if kind == "barracks" else 0)
        if kind:
            st.bf[x] = 0 if cell.get("outpost") else 1
        if cell.get("feature") == "crate":
            st.feat[x] = CRATE + cell["crate"]
        elif cell.get("feature"):
            st.feat[x] = B.FEATURE_CODES[cell["feature"]]
        if "mole" in cell:
            st.mole[x] = cell["mole"]
            st.mflag[x] = (MOVABLE if cell.get("movable") else 0) | (FRESH if cell.get("fresh") else 0)
        if cell.get("red_cross"):
            st.rc = x
    st.medals = list(v["medals"])
    st.moles_left = list(v["reserve"]["moles"])
    st.tiles_left = list(v["reserve"]["tiles"])
    st.prisoners = [list(r) for r in v["prisoners"]]
    st.press = v["press"] if v["press"] is not None else -1
    st.pool = v["farmer_tiles_beside"]
    st.obst_left = [v["obstacle_tiles_left"]["puddle_rock"], v["obstacle_tiles_left"]["ice_gas"]]
    st.dyn_pending = v["dynamite_pending"]
    st.line = list(v["line"])
    st.trash = list(v["trash"])
    st.peace = v["peace"]
    st.phase, st.step, st.order = v["phase"], v["step"], list(v["order"])
    st.start = v["start"]
    st.cur = v["current"] if v["current"] is not None else v["start"]
    st.turns = v["turns"]
    turn = v["turn"]
    st.stage = turn["stage"]
    st.pending = _private_pending(geo, turn["pending"])
    st.hand_used = turn["hand_used"]
    st.line_used = [k - 1 for k in turn["line_used"]]
    st.start_lines = frozenset(tuple(sorted((geo.cell(a), geo.cell(b)))) for a, b in turn["start_lines"])
    st.turn_log = [dict(a) for a in turn["log"]]
    st.undo_floor = turn["undo_floor"]
    st.crate_known = [[] for _ in range(n)]
    for cell in v["board"]:
        if cell.get("feature") == "crate":
            for s in cell["seen_by"]:
                st.crate_known[s].append(cell["crate"])
    for known in st.crate_known:
        known.sort()
    if st.phase == "over":
        st.final = v.get("final")
    return st


def determinize(v: dict, seat: int, rng):
    """A full state agreeing with seat's view: unseen cards and crate values drawn with rng."""
    n = v["players"]
    st = _build_public(v, rng.getrandbits(62))
    played = [a for a in st.turn_log if a.get("type") == "play"]
    # Cards: everything not seen is shuffled into the hidden places.
    pool = [t for t in v["options"]["types"] for _ in range(COPIES[n])]
    tops = {}
    for s, p in enumerate(v["piles"]):
        if s != seat:
            known = []
            if s == st.cur and st.phase == "play":
                known = [a["card"] for a in played]
                then = (v.get("turn_start") or {}).get("piles")
                if then and then[s]["top"]:
                    known.insert(0, then[s]["top"])  # the top card when the turn began lies under them
            tops[s] = (known[-p["size"]:] if known else []) or ([p["top"]] if p["top"] else [])
    seen = list(v["hand"]) + list(v["pile"]) + [c for c in st.line if c] + st.trash
    seen += [c for cards in tops.values() for c in cards]
    for card in seen:
        if card in pool:
            pool.remove(card)
    rng.shuffle(pool)
    for s in range(n):
        if s == seat:
            st.hands[s] = list(v["hand"])
            st.piles[s] = list(v["pile"])
        else:
            st.hands[s] = [pool.pop() for _ in range(v["hand_sizes"][s])]
            size = v["piles"][s]["size"]
            st.piles[s] = [pool.pop() for _ in range(size - len(tops[s]))] + tops[s]
    deck = pool[:v["deck_size"] - (0 if st.peace else 1)]
    if not st.peace and v["deck_size"] > 0:
        deck.insert(rng.randrange(min(6, v["deck_size"])), PEACE)  # Peace lies in the bottom six (T6)
    st.deck = deck
    # Crates: known values stay, the others are dealt from what is left.
    total = v["crates_total"]
    if total:
        known = {int(k): val for k, val in v["crates_known"].items()}
        if v.get("crate_values") is not None:  # the game is over: every value is on the table
            known = dict(enumerate(v["crate_values"]))
        left = list(CRATE_VALUES)
        for val in known.values():
            left.remove(val)
        rng.shuffle(left)
        st.crate_values = [known[k] if k in known else left.pop() for k in range(total)]
    st.crate_known[seat] = sorted(int(k) for k in v["crates_known"])
    if v.get("turn_start") is not None:
        st.snap = _turn_start(v["turn_start"], st, played)
    return st


def _turn_start(v0: dict, now, played):
    """The sampled position at the start of this turn: public table then, hidden cards as sampled now."""
    st = _build_public(v0, now.seed)
    st.deck = now.deck[:]
    st.crate_values = now.crate_values[:]
    st.hands = [h[:] for h in now.hands]
    st.piles = [p[:] for p in now.piles]
    c = now.cur
    st.hands[c] += [a["card"] for a in played if a["source"] == "hand"]
    if played:
        del st.piles[c][-len(played):]
    on_board = {f - CRATE for f in st.feat if f >= CRATE}
    for s in range(now.n):  # crates off the board then: keep what is known of them now
        st.crate_known[s] = sorted(set(st.crate_known[s]) | (set(now.crate_known[s]) - on_board))
    st.snap = None
    return st


def plant_secrets(st) -> dict:
    """Markers in every hidden place: hands, piles under their tops, deck, crate values, the seed.

    While a turn is unconfirmed (ruling S3) the others see the position kept at its start: it is
    planted too, and the actor's pile as it stands now (its top included) is hers alone.
    """
    seen: dict = {None: []}
    actor = st.unconfirmed_seat() if st.snap is not None else None
    for s in range(st.n):
        seen[s] = []
        st.hands[s] = [f"SECRET-hand-{s}-{i}" for i in range(max(1, len(st.hands[s])))]
        seen[s] += st.hands[s]
        if s == actor:
            st.piles[s] = [f"SECRET-pile-{s}-now-{i}" for i in range(max(1, len(st.piles[s])))]
            seen[s] += st.piles[s]
        else:
            seen[s] += _plant_pile(st, s, f"SECRET-pile-{s}")
    st.deck = [f"SECRET-deck-{i}" for i in range(max(1, len(st.deck)))]
    seen[None] += st.deck
    st.seed = "SECRET-seed"
    seen[None].append(st.seed)
    if st.phase != "over":  # crate values are revealed at the end (farmer card text)
        values = []
        for k in range(4):
            marker = f"SECRET-crate-{k}"
            knowers = [s for s in range(st.n) if k in st.crate_known[s]]
            if len(knowers) > 1:  # a value several seats know is nobody's secret alone: leave it as it is
                values.append(st.crate_values[k] if k < len(st.crate_values) else 0)
                continue
            values.append(marker)
            seen[knowers[0] if knowers else None].append(marker)
        st.crate_values = values
    if actor is not None:
        _plant_turn_start(st, st.snap, actor, seen)
    st._legal = None
    return seen


def _plant_pile(st, s: int, prefix: str) -> list[str]:
    """Markers under the pile's top (the top is public); returns them."""
    pile = st.piles[s]
    under = [f"{prefix}-{i}" for i in range(max(1, len(pile) - 1))]
    st.piles[s] = under + (pile[-1:] if pile else ["visible-top"])
    return under


def _plant_turn_start(st, snap, actor: int, seen: dict) -> None:
    """The kept start of the actor's turn: the others' cards as now, hers as they were, a deck of its own."""
    for s in range(st.n):
        if s == actor:
            snap.hands[s] = [f"SECRET-hand-{s}-start-{i}" for i in range(max(1, len(snap.hands[s])))]
            seen[s] += snap.hands[s] + _plant_pile(snap, s, f"SECRET-pile-{s}-start")
        else:  # another seat's cards do not change during someone else's turn
            snap.hands[s], snap.piles[s] = st.hands[s][:], st.piles[s][:]
    snap.deck = [f"SECRET-deck-start-{i}" for i in range(max(1, len(snap.deck)))]
    seen[None] += snap.deck
    snap.seed = st.seed
    snap.crate_values = st.crate_values[:]  # what a seat knew then she still knows: the same markers
    snap._legal = None

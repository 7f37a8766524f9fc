"""The hidden parts of a Topoum position: sampled to agree with a seat's view (the bots search over such states and
never see what their seat cannot, ruling G0.3), and planted as markers that the hidden-information tests look for."""

from __future__ import annotations

from . import board as B
from .board import CRATE, FRESH, MOVABLE, STANDALONE
from .cards import COPIES, PEACE
from .farmers import CRATE_VALUES
from .state import TopoumState
from .view import private_pending


def _build_public(table: dict, seed):
    """A state holding the public part of a view; hidden parts are filled by the caller."""
    n = table["players"]
    opts = dict(table["options"])
    state = TopoumState(n, opts, seed)
    geo = state.geo
    state.farmer = table["farmer"]
    for cell in table["board"]:
        x = geo.cell(cell["hex"])
        kind = cell.get("tile")
        if kind == "standalone":
            state.tile[x] = STANDALONE
        elif kind:
            state.tile[x] = cell["colour"] + (B.BARRACKS if kind == "barracks" else 0)
        if kind:
            state.bf[x] = 0 if cell.get("outpost") else 1
        if cell.get("feature") == "crate":
            state.feat[x] = CRATE + cell["crate"]
        elif cell.get("feature"):
            state.feat[x] = B.FEATURE_CODES[cell["feature"]]
        if "mole" in cell:
            state.mole[x] = cell["mole"]
            state.mflag[x] = (MOVABLE if cell.get("movable") else 0) | (FRESH if cell.get("fresh") else 0)
        if cell.get("red_cross"):
            state.rc = x
    state.medals = list(table["medals"])
    state.moles_left = list(table["reserve"]["moles"])
    state.tiles_left = list(table["reserve"]["tiles"])
    state.prisoners = [list(r) for r in table["prisoners"]]
    state.press = table["press"] if table["press"] is not None else -1
    state.pool = table["farmer_tiles_beside"]
    state.obst_left = [table["obstacle_tiles_left"]["puddle_rock"], table["obstacle_tiles_left"]["ice_gas"]]
    state.dyn_pending = table["dynamite_pending"]
    state.line = list(table["line"])
    state.trash = list(table["trash"])
    state.peace = table["peace"]
    state.phase, state.step, state.order = table["phase"], table["step"], list(table["order"])
    state.start = table["start"]
    state.cur = table["current"] if table["current"] is not None else table["start"]
    state.turns = table["turns"]
    turn = table["turn"]
    state.stage = turn["stage"]
    state.pending = private_pending(geo, turn["pending"])
    state.hand_used = turn["hand_used"]
    state.line_used = [k - 1 for k in turn["line_used"]]
    state.start_lines = frozenset(tuple(sorted((geo.cell(a), geo.cell(b)))) for a, b in turn["start_lines"])
    state.turn_log = [dict(a) for a in turn["log"]]
    state.undo_floor = turn["undo_floor"]
    state.crate_known = [[] for _ in range(n)]
    for cell in table["board"]:
        if cell.get("feature") == "crate":
            for s in cell["seen_by"]:
                state.crate_known[s].append(cell["crate"])
    for known in state.crate_known:
        known.sort()
    if state.phase == "over":
        state.final = table.get("final")
    return state


def determinize(table: dict, seat: int, rng):
    """A full state agreeing with seat's view: unseen cards and crate values drawn with rng."""
    n = table["players"]
    state = _build_public(table, rng.getrandbits(62))
    played = [a for a in state.turn_log if a.get("type") == "play"]
    # Cards: everything not seen is shuffled into the hidden places.
    pool = [t for t in table["options"]["types"] for _ in range(COPIES[n])]
    tops = {}
    for s, p in enumerate(table["piles"]):
        if s != seat:
            known = []
            if s == state.cur and state.phase == "play":
                known = [a["card"] for a in played]
                then = (table.get("turn_start") or {}).get("piles")
                if then and then[s]["top"]:
                    known.insert(0, then[s]["top"])  # the top card when the turn began lies under them
            tops[s] = (known[-p["size"] :] if known else []) or ([p["top"]] if p["top"] else [])
    seen = list(table["hand"]) + list(table["pile"]) + [c for c in state.line if c] + state.trash
    seen += [c for cards in tops.values() for c in cards]
    for card in seen:
        if card in pool:
            pool.remove(card)
    rng.shuffle(pool)
    for s in range(n):
        if s == seat:
            state.hands[s] = list(table["hand"])
            state.piles[s] = list(table["pile"])
        else:
            state.hands[s] = [pool.pop() for _ in range(table["hand_sizes"][s])]
            size = table["piles"][s]["size"]
            state.piles[s] = [pool.pop() for _ in range(size - len(tops[s]))] + tops[s]
    deck = pool[: table["deck_size"] - (0 if state.peace else 1)]
    if not state.peace and table["deck_size"] > 0:
        deck.insert(rng.randrange(min(6, table["deck_size"])), PEACE)  # Peace lies in the bottom six (T6)
    state.deck = deck
    # Crates: known values stay, the others are dealt from what is left.
    total = table["crates_total"]
    if total:
        known = {int(k): val for k, val in table["crates_known"].items()}
        if table.get("crate_values") is not None:  # the game is over: every value is on the table
            known = dict(enumerate(table["crate_values"]))
        left = list(CRATE_VALUES)
        for val in known.values():
            left.remove(val)
        rng.shuffle(left)
        state.crate_values = [known[k] if k in known else left.pop() for k in range(total)]
    state.crate_known[seat] = sorted(int(k) for k in table["crates_known"])
    if table.get("turn_start") is not None:
        state.snap = _turn_start(table["turn_start"], state, played)
    return state


def _turn_start(start_table: dict, now, played):
    """The sampled position at the start of this turn: public table then, hidden cards as sampled now."""
    state = _build_public(start_table, now.seed)
    state.deck = now.deck[:]
    state.crate_values = now.crate_values[:]
    state.hands = [h[:] for h in now.hands]
    state.piles = [p[:] for p in now.piles]
    actor = now.cur
    state.hands[actor] += [a["card"] for a in played if a["source"] == "hand"]
    if played:
        del state.piles[actor][-len(played) :]
    on_board = {f - CRATE for f in state.feat if f >= CRATE}
    for s in range(now.n):  # crates off the board then: keep what is known of them now
        state.crate_known[s] = sorted(set(state.crate_known[s]) | (set(now.crate_known[s]) - on_board))
    state.snap = None
    return state


def plant_secrets(state) -> dict:
    """Markers in every hidden place: hands, piles under their tops, deck, crate values, the seed.

    While a turn is unconfirmed (ruling S3) the others see the position kept at its start: it is
    planted too, and the actor's pile as it stands now (its top included) is hers alone.
    """
    seen: dict = {None: []}
    actor = state.unconfirmed_seat() if state.snap is not None else None
    for s in range(state.n):
        seen[s] = []
        state.hands[s] = [f"SECRET-hand-{s}-{i}" for i in range(max(1, len(state.hands[s])))]
        seen[s] += state.hands[s]
        if s == actor:
            state.piles[s] = [f"SECRET-pile-{s}-now-{i}" for i in range(max(1, len(state.piles[s])))]
            seen[s] += state.piles[s]
        else:
            seen[s] += _plant_pile(state, s, f"SECRET-pile-{s}")
    state.deck = [f"SECRET-deck-{i}" for i in range(max(1, len(state.deck)))]
    seen[None] += state.deck
    state.seed = "SECRET-seed"
    seen[None].append(state.seed)
    if state.phase != "over":  # crate values are revealed at the end (farmer card text)
        values = []
        for k in range(4):
            marker = f"SECRET-crate-{k}"
            knowers = [s for s in range(state.n) if k in state.crate_known[s]]
            if len(knowers) > 1:  # a value several seats know is nobody's secret alone: leave it as it is
                values.append(state.crate_values[k] if k < len(state.crate_values) else 0)
                continue
            values.append(marker)
            seen[knowers[0] if knowers else None].append(marker)
        state.crate_values = values
    if actor is not None:
        _plant_turn_start(state, state.snap, actor, seen)
    state._legal = None
    return seen


def _plant_pile(state, seat: int, prefix: str) -> list[str]:
    """Markers under the pile's top (the top is public); returns them."""
    pile = state.piles[seat]
    under = [f"{prefix}-{i}" for i in range(max(1, len(pile) - 1))]
    state.piles[seat] = under + (pile[-1:] if pile else ["visible-top"])
    return under


def _plant_turn_start(state, snap, actor: int, seen: dict) -> None:
    """The kept start of the actor's turn: the others' cards as now, hers as they were, a deck of its own."""
    for s in range(state.n):
        if s == actor:
            snap.hands[s] = [f"SECRET-hand-{s}-start-{i}" for i in range(max(1, len(snap.hands[s])))]
            seen[s] += snap.hands[s] + _plant_pile(snap, s, f"SECRET-pile-{s}-start")
        else:  # another seat's cards do not change during someone else's turn
            snap.hands[s], snap.piles[s] = state.hands[s][:], state.piles[s][:]
    snap.deck = [f"SECRET-deck-start-{i}" for i in range(max(1, len(snap.deck)))]
    seen[None] += snap.deck
    snap.seed = state.seed
    snap.crate_values = state.crate_values[:]  # what a seat knew then she still knows: the same markers
    snap._legal = None

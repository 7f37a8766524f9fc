"""What each seat may see (ruling G0.3), states rebuilt from a view for bots, and secret planting for tests."""

from __future__ import annotations

from . import board as B
from .board import COLOURS, CRATE, DEADLY, FRESH, MOVABLE, STANDALONE
from .cards import COPIES, PEACE, category
from .events import prompt
from .farmers import CRATE_VALUES
from .movement import COLLIDE, DIE, LOST_MOLE_PENALTY, OWN_COLLISION_PENALTY, trace
from .scoring import new_lines
from .state import TopoumState


def _convert_pending(pending, convert):
    """The pending decision with its spaces converted by `convert` (cell index <-> [q, r])."""
    if pending is None:
        return None
    out = dict(pending)
    if "m" in pending:
        out["m"] = convert(pending["m"])
    if "parts" in pending:
        out["parts"] = [[convert(space) for space in part] for part in pending["parts"]]
    if "then" in pending:
        then = dict(pending["then"])
        for field in ("cell", "m"):
            if field in then:
                then[field] = convert(then[field])
        out["then"] = then
    return out


def _public_pending(geo, pending):
    return _convert_pending(pending, geo.hex)


def _private_pending(geo, pending):
    return _convert_pending(pending, geo.cell)


def board_cells(state, seat) -> list[dict]:
    """The occupied or tiled spaces; crate values only for those who looked (or at the end)."""
    geo = state.geo
    over = state.phase == "over"
    out = []
    for cell_index in range(geo.size):
        tile = state.tile[cell_index]
        if tile < 0 and state.rc != cell_index:
            continue
        cell = {"hex": geo.hex(cell_index)}
        if tile >= 0:
            if tile == STANDALONE:
                cell["tile"], cell["colour"] = "standalone", None
            else:
                cell["tile"] = "barracks" if tile >= B.BARRACKS else "neutral"
                cell["colour"] = tile & 3
            cell["outpost"] = not state.bf[cell_index]
        feature = state.feat[cell_index]
        if feature >= CRATE:
            crate = feature - CRATE
            cell["feature"] = "crate"
            cell["crate"] = crate
            cell["seen_by"] = [s for s in range(state.n) if crate in state.crate_known[s]]
            if over or (seat is not None and crate in state.crate_known[seat]):
                cell["value"] = state.crate_values[crate]
        elif feature:
            cell["feature"] = B.FEATURE_NAMES[feature]
            if feature in DEADLY:
                cell["deadly"] = True  # rulings T12, T16, T17: a mole entering is eliminated
        owner = state.mole[cell_index]
        if owner >= 0:
            cell["mole"] = owner
            if state.mflag[cell_index] & MOVABLE:
                cell["movable"] = True
            if state.mflag[cell_index] & FRESH:
                cell["fresh"] = True
        if state.rc == cell_index:
            cell["red_cross"] = True
        out.append(cell)
    return out


def move_outcomes(state, seat: int) -> list[dict]:
    """What each of the seat's legal moves does to the moving mole (ruling T12), as the engine plays it."""
    geo = state.geo
    out = []
    for action in state.legal_actions(seat):
        if action["type"] != "move":
            continue
        source = geo.cell(action["from"])
        direction = B.DIRECTIONS_INDEX[(action["to"][0] - action["from"][0], action["to"][1] - action["from"][1])]
        entered = geo.nb[source][direction]
        outcome, where = trace(state, entered, direction, seat)
        entry = {"from": action["from"], "to": action["to"], "at": geo.hex(where) if where >= 0 else None, "penalty": 0}
        if outcome == DIE:
            feature = state.feat[where] if where >= 0 and state.tile[where] >= 0 else B.NONE
            entry.update(outcome="lost", feature=B.FEATURE_NAMES.get(feature), penalty=LOST_MOLE_PENALTY)
        elif outcome == COLLIDE:
            own = state.mole[where] == seat
            entry.update(outcome="collide_own" if own else "collide_rival", penalty=OWN_COLLISION_PENALTY if own else 0)
        else:
            entry["outcome"] = "land" if where == entered else "slide"
        out.append(entry)
    return out


def _decision(state) -> dict | None:
    """Who decides and what she is asked (engine.topoum.events.prompt)."""
    return {"seat": state.cur, "prompt": prompt(state)} if state.phase != "over" else None


def _stuck(state, seat: int, decision: dict | None) -> bool:
    """To herself: none of her moles can act, and ending the turn is all that is left."""
    if decision is None or decision["prompt"]["code"] != "topoum.prompt.act" or seat != state.cur:
        return False
    return all(action["type"] in ("end_turn", "undo", "ransom") for action in state.legal_actions(seat))


def public_part(state, me) -> dict:
    """Everything on the table that every seat sees (the board, medals, reserves, Line, pile tops...)."""
    geo = state.geo
    seen = {
        "game": "topoum",
        "players": state.n,
        "colours": list(COLOURS[: state.n]),
        "options": {name: state.opts[name] for name in ("radius", "types", "line_values", "obstacles", "farmer")},
        "card_categories": {card: category(card) for card in state.opts["types"]},
        "marks": {"x_spaces": [geo.hex(cell) for cell in geo.x_spaces], "zones": [geo.hex(cell) for cell in geo.zones]},
        "farmer": state.farmer,
        "phase": state.phase,
        "step": state.step,
        "order": list(state.order),
        "start": state.start,
        "current": state.cur if state.phase != "over" else None,
        "to_act": state.to_act(),
        "board": board_cells(state, me),
        "red_cross": geo.hex(state.rc) if state.rc >= 0 else None,
        "medals": list(state.medals),
        "reserve": {"moles": list(state.moles_left), "tiles": list(state.tiles_left)},
        "prisoners": [row[:] for row in state.prisoners],
        "press": state.press if state.press >= 0 else None,
        "farmer_tiles_beside": state.pool,
        "obstacle_tiles_left": {"puddle_rock": state.obst_left[0], "ice_gas": state.obst_left[1]},
        "crates_total": len(state.crate_values),
        "dynamite_pending": state.dyn_pending,
        "deck_size": len(state.deck),
        "line": list(state.line),
        "trash": list(state.trash),
        "hand_sizes": [len(cards) for cards in state.hands],
        "piles": [{"size": len(pile), "top": pile[-1] if pile else None} for pile in state.piles],
        "peace": state.peace,
        "last_seat": (state.start - 1) % state.n,
        "turns": state.turns,
        "turn": {
            "stage": state.stage,
            "pending": _public_pending(geo, state.pending),
            "hand_used": state.hand_used,
            "line_used": [slot + 1 for slot in state.line_used],
            "start_lines": [[geo.hex(a), geo.hex(b)] for a, b in sorted(state.start_lines)],
            "log": [dict(action) for action in state.turn_log],
            "undo_floor": state.undo_floor,
        },
        "decision": _decision(state),
    }
    if state.phase == "play":
        seen["new_lines"] = [
            {"from": geo.hex(a), "to": geo.hex(b), "medals": medals} for a, b, medals in new_lines(state, state.cur)
        ]
    return seen


def view(state, seat) -> dict:
    """Everything `seat` (None: a spectator) may see, plus what the page needs for the current decision.

    Her legal actions and whether she may take back travel beside the view (the table's detail), not in it.
    """
    me = seat if isinstance(seat, int) and 0 <= seat < state.n else None
    if state.unconfirmed_seat() not in (None, me) and state.snap is not None:
        # Ruling S3 (amended): her turn is hers until she confirms it; the others see it as it began
        # (turn_start too, as they saw it before her first decision).
        seen = view(state.snap, seat)
        seen["turn_start"] = public_part(state.snap, me)
        return seen
    seen = public_part(state, me)
    seen["seat"] = me
    if me is not None:
        seen["hand"] = list(state.hands[me])
        seen["pile"] = list(state.piles[me])
        seen["crates_known"] = {str(crate): state.crate_values[crate] for crate in state.crate_known[me]}
        if state.phase == "play" and me == state.cur:
            seen["move_outcomes"] = move_outcomes(state, me)
        if _stuck(state, me, seen["decision"]):
            seen["decision"]["prompt"] = {"code": "topoum.prompt.stuck"}
    # The table as it was when this turn began (public): lets a bot's sampled state take back too.
    seen["turn_start"] = public_part(state.snap, me) if state.snap is not None and state.phase == "play" else None
    if state.phase == "over":
        seen["final"] = state.final
        seen["crate_values"] = list(state.crate_values)
        seen["results"] = [r.to_json() for r in state.results()]
    return seen


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
    state.pending = _private_pending(geo, turn["pending"])
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

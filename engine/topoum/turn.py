"""A Topoum turn as a chain of small decisions: their legal lists and their effects (rulings T9-T19)."""

from __future__ import annotations

from . import board as B
from .barracks import (
    finish_placement,
    has_barracks_source,
    need_barracks,
    placement_spaces,
    still_next_to_battlefield,
    take_back,
    takeback_candidates,
    with_taken_back,
)
from .board import BARRACKS, MOVABLE, NONE, STANDALONE, at, cells_of, ev
from .cards import PEACE
from .effects import DIRECTION, KIND, has_mole_on_battlefield, playable, resolve, targets
from .farmers import place_dynamite
from .movement import BLOCKED, LAND, absorb, arrive, free_spaces_next_to_battlefield, remove_part, settle, trace
from .scoring import finish, new_lines

END_TURN = {"type": "end_turn"}
UNDO = {"type": "undo"}
CHANGE_TILE = {"type": "change_tile"}


# --- turn boundaries ----------------------------------------------------------------
def begin_turn(state) -> None:
    """Start the current seat's turn: note her moles and lines, keep the position for undo.

    Only her moles on the battlefield now may take the "Move moles" step (T12): one on an outpost is not on
    it (ruling T21) and stays until something else moves it or the battlefield grows to include its space.
    """
    c = state.cur
    flags = [0] * len(state.mflag)
    bf = state.bf
    for x in cells_of(state.mole, c):
        if bf[x]:
            flags[x] = MOVABLE
    state.mflag[:] = flags
    state.stage = "start"
    state.pending = None
    state.hand_used = 0
    state.line_used = []
    state.turn_log = []
    state.undo_floor = 0
    state.removed = False
    # Her lines now (start_lines) and this position (snap) are kept when first needed (TopoumState.snap).
    state._turn_due = True


def end_turn(state) -> None:
    """Score new lines (T18), pay the Press, replenish (T19), then the next turn or the end (T20)."""
    c = state.cur
    scored = new_lines(state, c)
    if scored:
        total = sum(v for _, _, v in scored)
        state.medals[c] += total
        state.events.append(ev("lines_scored", lines=len(scored), medals=total))
    if state.press >= 0:
        state.medals[state.press] += 1
        state.events.append(ev("press_medal", seat=state.press))
    replenish(state, c)
    state.turns += 1
    if state.peace and c == (state.start - 1) % state.n:
        finish(state)
        state.events.append(ev("war_over"))
        return
    state.cur = (c + 1) % state.n
    begin_turn(state)


def _draw(state):
    """The top card of the deck; Peace is set aside and triggers the end (ruling T19)."""
    deck = state.deck
    while deck:
        card = deck.pop()
        if card != PEACE:
            return card
        if not state.peace:
            state.peace = True
            state.events.append(ev("peace"))
    return None


def replenish(state, seat: int) -> None:
    """Hand back to two if she played from it, then the Line (ruling T19)."""
    hand = state.hands[seat]
    if state.hand_used and not state.peace:
        drawn = 0
        while len(hand) < 2 and not (state.peace and drawn):
            card = _draw(state)
            if card is None:
                break
            hand.append(card)
            drawn += 1
            if state.peace:
                break  # from then on only the Line is refilled
        if drawn:
            state.events.append(ev("draws", seat=seat, cards=drawn))
    line = state.line
    if state.line_used or not state.hand_used:
        if not state.line_used and not state.hand_used and line[4] is not None:
            state.trash.append(line[4])
            state.events.append(ev("line_unused", card=line[4]))
            line[4] = None
        rest = [x for x in line if x is not None]
        empty = 5 - len(rest)
        line[:] = [None] * empty + rest
        new = []
        for k in range(empty - 1, -1, -1):
            card = _draw(state)
            line[k] = card
            if card:
                new.append(card)
        if new:
            state.events.append(ev("line_enter", cards=new))


# --- what may be chosen ------------------------------------------------------------------
def own_moles(state, seat: int) -> list[int]:
    return cells_of(state.mole, seat)


def cards_at_hand(state, seat: int):
    """(card, source, slot) for every distinct card she could take: hand (free) or Line (T13)."""
    out = [(card, "hand", 0) for card in dict.fromkeys(state.hands[seat])]
    out += [(card, "line", k + 1) for k, card in enumerate(state.line) if card is not None]
    return out


def cards_in_reach(state, seat: int) -> set[str]:
    """The card types she could take: her hand and the Line."""
    cards = set(state.hands[seat])
    cards.update(state.line)
    cards.discard(None)
    return cards


def any_card_playable(state, mole_cell: int, seat: int, cards: set[str] | None = None) -> bool:
    """Some card in reach (`cards`, when the caller has them already) can be played on the mole at `mole_cell`."""
    if cards is None:
        cards = cards_in_reach(state, seat)
    return any(playable(state, card, mole_cell, seat) for card in cards)


def playable_wherever_she_enters(state, space: int, seat: int, cards: set[str]) -> bool:
    """A card whose choices do not depend on the square a new mole enters is in reach: a quick yes
    before trying the entry (Red Cross on the new mole, Press Support, Medal of Honor on another mole)."""
    return (
        ("red_cross" in cards and state.rc != space)
        or ("press_support" in cards and state.press != seat)
        or ("medal_of_honor" in cards and has_mole_on_battlefield(state, seat))
    )


def enter_has_card(state, space: int, seat: int, cards: set[str] | None = None) -> bool:
    """Law #7 for T11: some card could be played on a new mole entering at `space`."""
    if cards is None:
        cards = cards_in_reach(state, seat)
    if playable_wherever_she_enters(state, space, seat, cards):
        return True
    tile, mole, bf, nb = state.tile, state.mole, state.bf, state.geo.nb
    joined = [j for j in nb[space] if j >= 0 and tile[j] >= 0 and not bf[j]]
    tile[space] = BARRACKS + seat
    mole[space] = seat
    state.tiles_left[seat] -= 1
    state.moles_left[seat] -= 1
    before = bf[:] if joined else None
    if joined:
        absorb(state, space)
    else:
        bf[space] = 1
    try:
        return any_card_playable(state, space, seat, cards)
    finally:
        tile[space] = B.NO_TILE
        mole[space] = -1
        state.tiles_left[seat] += 1
        state.moles_left[seat] += 1
        if before is not None:
            bf[:] = before
        bf[space] = 0


def can_change_tile(state, mole_cell: int, seat: int) -> bool:
    """T12: the tile under the mole can be turned or replaced (a crate may lie on it, nothing else)."""
    t, f = state.tile[mole_cell], state.feat[mole_cell]
    if not 0 <= t < STANDALONE or (f != NONE and f < B.CRATE):
        return False
    return t == BARRACKS + seat or t == seat or has_barracks_source(state, seat)


def after_move_ok(state, mole_cell: int, landing: int, seat: int, cards: set[str]) -> bool:
    """Law #7 for T12: a mole moving from `mole_cell` to `landing` could then play one of `cards` or
    change its tile."""
    mole = state.mole
    mole[mole_cell] = -1
    mole[landing] = seat
    try:
        return can_change_tile(state, landing, seat) or any_card_playable(state, landing, seat, cards)
    finally:
        mole[landing] = -1
        mole[mole_cell] = seat


def move_actions(state, seat: int) -> list[dict]:
    return [act for act, _ in moves_and_survival(state, seat)]


def moves_and_survival(state, seat: int) -> list[tuple[dict, bool]]:
    """Every legal move with whether the moving mole comes through it alive (it lands on a square)."""
    out = []
    geo = state.geo
    mole, flags, nb = state.mole, state.mflag, geo.nb
    cards = cards_in_reach(state, seat)
    for m in range(len(mole)):
        if mole[m] != seat or not flags[m] & MOVABLE:
            continue
        src = geo.hex(m)
        for d in range(6):
            x = nb[m][d]
            outcome, y = trace(state, x, d, seat)
            if outcome == BLOCKED:
                continue
            if outcome == LAND and not after_move_ok(state, m, y, seat, cards):
                continue
            out.append(({"type": "move", "from": src, "to": geo.step_hex(m, d)}, outcome == LAND))
    return out


def enter_actions(state, seat: int) -> list[dict]:
    if state.moles_left[seat] <= 0:
        return []
    geo = state.geo
    spaces = placement_spaces(state, seat)
    cards = cards_in_reach(state, seat)
    if state.tiles_left[seat] > 0:
        ok = [h for h in spaces if enter_has_card(state, h, seat, cards)]
    else:
        cands = takeback_candidates(state, seat)
        ok = [
            h
            for h in spaces
            if any(
                still_next_to_battlefield(state, h, b)
                and with_taken_back(state, b, lambda: enter_has_card(state, h, seat, cards))
                for b in cands
            )
        ]
    return [{"type": "enter", "hex": geo.hex(h)} for h in ok]


def compulsory(state, seat: int) -> bool:
    """T9: no mole on the battlefield and one in reserve; a mole on an outpost is not on it (ruling T21)."""
    return state.moles_left[seat] > 0 and not has_mole_on_battlefield(state, seat)


def play_actions(state, mole_cell: int, seat: int) -> list[dict]:
    out = []
    ok: dict[str, bool] = {}
    for card, source, slot in cards_at_hand(state, seat):
        if card not in ok:
            ok[card] = playable(state, card, mole_cell, seat)
        if ok[card]:
            act = {"type": "play", "card": card, "source": source}
            if source == "line":
                act["slot"] = slot
            out.append(act)
    return out


def choice_action(geo, choice) -> dict:
    if choice is None:
        return {"type": "target", "hex": None}
    if isinstance(choice, tuple):
        src, dst = choice
        return {"type": "target", "hex": geo.hex(dst), "from": geo.hex(src) if src >= 0 else None}
    return {"type": "target", "hex": geo.hex(choice)}


def pending_actions(state, pending: dict, seat: int) -> list[dict]:
    geo = state.geo
    k = pending["k"]
    if k == "card":
        out = play_actions(state, pending["m"], seat)
        if pending.get("alt") and can_change_tile(state, pending["m"], seat):
            out.append(dict(CHANGE_TILE))
        return out
    if k == "target":
        return [choice_action(geo, ch) for ch in targets(state, pending["card"], pending["m"], seat)]
    if k == "direction":
        return [{"type": "direction", "dir": d} for d in targets(state, pending["card"], pending["m"], seat)]
    if k == "keep":
        return [{"type": "keep", "hex": geo.hex(x)} for part in pending["parts"] for x in part]
    if k == "dynamite":
        return [{"type": "target", "hex": geo.hex(x)} for x in free_spaces_next_to_battlefield(state)]
    if k == "take_back":
        return [{"type": "take_back", "hex": geo.hex(b)} for b in takeback_options(state, seat, pending["then"])]
    return []


def takeback_options(state, seat: int, then: dict) -> list[int]:
    """Barracks that may be taken back for `then` without a dead end (Law #7)."""
    cands = takeback_candidates(state, seat)
    h = then.get("cell")
    do = then["do"]
    if do in ("build", "place", "enter"):
        cands = [b for b in cands if still_next_to_battlefield(state, h, b)]
    if do == "enter":
        cands = [b for b in cands if with_taken_back(state, b, lambda: enter_has_card(state, h, seat))]
    return cands


def turn_actions(state) -> list[dict]:
    """Every choice of the seat to act in her turn; each leads on to a complete turn (Law of War #7)."""
    c = state.cur
    if state.pending is not None:
        out = pending_actions(state, state.pending, c)
    elif state.stage in ("start", "action"):
        out = []
        if state.stage == "start" and state.medals[c] >= 3:  # ruling T21: a ransom is paid from 3 medals in hand
            out += [{"type": "ransom", "captor": s} for s in range(state.n) if state.prisoners[s][c] > 0]
        places = placement_spaces(state, c) if state.stage == "start" and compulsory(state, c) else []
        if places:
            out += [{"type": "place", "hex": state.geo.hex(h)} for h in places]
        else:
            out += action_step(state, c)
    elif state.stage == "moving":
        out = move_actions(state, c) + [dict(END_TURN)]
    else:
        out = [dict(END_TURN)]
    if state.undoable(c):
        out.append(dict(UNDO))
    return out


def turn_action_types(state) -> set[str]:
    """The types among `turn_actions(state)`, found without building the lists while a decision is
    pending (each kind asks for one type; whether it has a choice is a yes/no): a refused action is
    explained by them, and bots try end_turn after nearly every decision they weigh."""
    p = state.pending
    if p is None:
        return {action["type"] for action in turn_actions(state)}
    c, k = state.cur, p["k"]
    types = set()
    if k == "card":
        if any_card_playable(state, p["m"], c):
            types.add("play")
        if p.get("alt") and can_change_tile(state, p["m"], c):
            types.add("change_tile")
    elif k in ("target", "direction"):
        if playable(state, p["card"], p["m"], c):
            types.add(k)
    elif k == "keep":
        if any(p["parts"]):
            types.add("keep")
    elif k == "dynamite":
        if free_spaces_next_to_battlefield(state):
            types.add("target")
    elif k == "take_back":
        if takeback_options(state, c, p["then"]):
            types.add("take_back")
    if state.undoable(c):
        types.add("undo")
    return types


def turn_actions_of_type(state, kind) -> list[dict]:
    """The legal actions of one type (those of `turn_actions` with that "type"), without listing the
    others where the turn allows it: checking a move need not try every entry, nor an entry every move."""
    seat = state.cur
    if kind == "undo":
        return [dict(UNDO)] if state.undoable(seat) else []
    if state.pending is not None and kind == "end_turn":
        return []  # a pending decision is answered first (pending_actions never ends the turn)
    if state.pending is None:
        if state.stage == "done" or (state.stage == "moving" and kind == "end_turn"):
            return [dict(END_TURN)] if kind == "end_turn" else []
        if state.stage == "moving":
            return move_actions(state, seat) if kind == "move" else []
        if kind in ("enter", "move"):
            if state.stage == "start" and compulsory(state, seat) and placement_spaces(state, seat):
                return []  # the compulsory placement comes first (T9)
            return enter_actions(state, seat) if kind == "enter" else move_actions(state, seat)
        if kind == "end_turn":
            if state.stage == "start" and compulsory(state, seat) and placement_spaces(state, seat):
                return []
            return [dict(END_TURN)] if may_skip_action(state, seat, moves_and_survival(state, seat)) else []
    return [action for action in turn_actions(state) if action["type"] == kind]


def action_step(state, seat: int) -> list[dict]:
    """Enter into combat or move (T11, T12), and end_turn when the action step may be left out.

    It may when she has no action (T9: she skips the step), and when every action she has would
    eliminate one of her own moles (ruling T21): a move off the battlefield, onto a deadly tile or
    into a combat. Entering and a move that lands keep her moles alive (what follows is her choice).
    """
    enter = enter_actions(state, seat)
    moves = moves_and_survival(state, seat)
    out = enter + [act for act, _ in moves]
    if may_skip_action(state, seat, moves, enter):
        out.append(dict(END_TURN))
    return out


def may_skip_action(state, seat: int, moves: list[tuple[dict, bool]], enter: list[dict] | None = None) -> bool:
    """No move of hers lands and she cannot enter: she may end her turn without an action (T9, T21).
    The moves come first: they are cheap to list, and one that lands settles it without listing entries."""
    if any(alive for _, alive in moves):
        return False
    return not (enter if enter is not None else enter_actions(state, seat))


# --- doing it -------------------------------------------------------------------------------
def _choice(state, pending: dict, action: dict):
    geo = state.geo
    if pending["card"] == "farmer" and "from" in action:
        src = action["from"]
        return (geo.cell(src) if src is not None else -1, geo.cell(action["hex"]))
    return geo.cell(action["hex"]) if action["hex"] is not None else None


def apply_action(state, action: dict) -> None:
    """Carry out a legal action (already checked) for the seat to act."""
    if state._turn_due:
        state._keep_turn_start()  # before anything changes: the turn's start as it was
    state.events = []
    t = action["type"]
    if t == "undo":
        undo(state)
        return
    state.turn_log.append(action)
    c = state.cur
    p = state.pending
    geo = state.geo
    if t == "end_turn":
        end_turn(state)
    elif t == "ransom":
        s = action["captor"]
        state.prisoners[s][c] -= 1
        state.moles_left[c] += 1
        state.medals[c] -= 3
        state.medals[s] += 3
    elif t in ("place", "enter"):
        if t == "enter":
            state.stage = "done"
        need_barracks(state, c, {"do": t, "cell": geo.cell(action["hex"])})
    elif t == "move":
        m = geo.cell(action["from"])
        d = B.DIRECTIONS_INDEX[(action["to"][0] - action["from"][0], action["to"][1] - action["from"][1])]
        state.mflag[m] &= ~MOVABLE
        state.stage = "moving"
        y = arrive(state, c, m, geo.nb[m][d], d, c)
        if y >= 0:
            state.pending = {"k": "card", "m": y, "alt": True}
    elif t == "play":
        play_card(state, c, p["m"], action)
    elif t == "change_tile":
        change_tile(state, c, p["m"])
    elif t == "target" and p["k"] == "dynamite":
        place_dynamite(state, geo.cell(action["hex"]))
        settle(state, c)
    elif t in ("target", "direction"):
        choice = action["dir"] if t == "direction" else _choice(state, p, action)
        resolve(state, p["card"], p["m"], c, choice)
        if state.pending is None:
            settle(state, c)
    elif t == "keep":
        x = geo.cell(action["hex"])
        for part in p["parts"]:
            if x not in part:
                remove_part(state, part, c)
        state.pending = None
        settle(state, c)
    elif t == "take_back":
        state.pending = None
        take_back(state, c, geo.cell(action["hex"]))
        finish_placement(state, c, p["then"])


def play_card(state, seat: int, mole_cell: int, action: dict) -> None:
    """T13: take the card from hand or Line (paying the slot), discard it to her pile, then its effect."""
    card = action["card"]
    if action["source"] == "hand":
        state.hands[seat].remove(card)
        state.hand_used += 1
    else:
        k = action["slot"] - 1
        state.line[k] = None
        state.line_used.append(k)
        state.medals[seat] += state.opts["line_values"][k]
    state.piles[seat].append(card)
    choices = targets(state, card, mole_cell, seat)
    if choices == [None]:
        resolve(state, card, mole_cell, seat, None)
        if state.pending is None:
            settle(state, seat)
    else:
        state.pending = {"k": "direction" if KIND[card] == DIRECTION else "target", "card": card, "m": mole_cell}


def change_tile(state, seat: int, mole_cell: int) -> None:
    """T12: own barracks turns neutral; any other tile is replaced by one of her barracks."""
    state.pending = None
    t = state.tile[mole_cell]
    if t == BARRACKS + seat:
        state.tile[mole_cell] = seat
        state.events.append(ev("barracks_neutral", seat=seat, hex=at(state.geo, mole_cell)))
    elif t == seat:
        state.tile[mole_cell] = BARRACKS + seat
        state.events.append(ev("tile_barracks", seat=seat, hex=at(state.geo, mole_cell)))
    else:
        need_barracks(state, seat, {"do": "change", "cell": mole_cell})


def undo(state) -> None:
    """Take back the last decision of the turn: back to the turn's start, then replay the others (S3)."""
    snap = state.snap
    log = state.turn_log[:-1]
    state.__dict__.update(snap.clone().__dict__)
    state.snap = snap
    for a in log:
        apply_action(state, a)
    state.events = []

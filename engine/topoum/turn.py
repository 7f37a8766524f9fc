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
from .board import BARRACKS, MOVABLE, NONE, STANDALONE, at, ev
from .cards import PEACE
from .effects import DIRECTION, KIND, playable, resolve, targets
from .farmers import place_dynamite
from .movement import BLOCKED, LAND, absorb, arrive, free_spaces_next_to_battlefield, remove_part, settle, trace
from .scoring import finish, line_keys, new_lines

END_TURN = {"type": "end_turn"}
UNDO = {"type": "undo"}
CHANGE_TILE = {"type": "change_tile"}


# --- turn boundaries ----------------------------------------------------------------
def begin_turn(st) -> None:
    """Start the current seat's turn: note her moles and lines, keep the position for undo."""
    c = st.cur
    mole, flags = st.mole, st.mflag
    for x in range(len(mole)):
        flags[x] = MOVABLE if mole[x] == c else 0
    st.stage = "start"
    st.pending = None
    st.hand_used = 0
    st.line_used = []
    st.start_lines = line_keys(st, c)
    st.turn_log = []
    st.undo_floor = 0
    st.removed = False
    st.snap = None
    st.snap = st.clone()


def end_turn(st) -> None:
    """Score new lines (T18), pay the Press, replenish (T19), then the next turn or the end (T20)."""
    c = st.cur
    scored = new_lines(st, c)
    if scored:
        total = sum(v for _, _, v in scored)
        st.medals[c] += total
        st.events.append(ev("lines_scored", lines=len(scored), medals=total))
    if st.press >= 0:
        st.medals[st.press] += 1
        st.events.append(ev("press_medal", seat=st.press))
    replenish(st, c)
    st.turns += 1
    if st.peace and c == (st.start - 1) % st.n:
        finish(st)
        st.events.append(ev("war_over"))
        return
    st.cur = (c + 1) % st.n
    begin_turn(st)


def _draw(st):
    """The top card of the deck; Peace is set aside and triggers the end (ruling T19)."""
    deck = st.deck
    while deck:
        card = deck.pop()
        if card != PEACE:
            return card
        if not st.peace:
            st.peace = True
            st.events.append(ev("peace"))
    return None


def replenish(st, c: int) -> None:
    """Hand back to two if she played from it, then the Line (ruling T19)."""
    hand = st.hands[c]
    if st.hand_used and not st.peace:
        drawn = 0
        while len(hand) < 2 and not (st.peace and drawn):
            card = _draw(st)
            if card is None:
                break
            hand.append(card)
            drawn += 1
            if st.peace:
                break  # from then on only the Line is refilled
        if drawn:
            st.events.append(ev("draws", seat=c, cards=drawn))
    line = st.line
    if st.line_used or not st.hand_used:
        if not st.line_used and not st.hand_used and line[4] is not None:
            st.trash.append(line[4])
            st.events.append(ev("line_unused", card=line[4]))
            line[4] = None
        rest = [x for x in line if x is not None]
        empty = 5 - len(rest)
        line[:] = [None] * empty + rest
        new = []
        for k in range(empty - 1, -1, -1):
            card = _draw(st)
            line[k] = card
            if card:
                new.append(card)
        if new:
            st.events.append(ev("line_enter", cards=new))


# --- what may be chosen ------------------------------------------------------------------
def own_moles(st, c: int) -> list[int]:
    mole = st.mole
    return [x for x in range(len(mole)) if mole[x] == c]


def cards_at_hand(st, c: int):
    """(card, source, slot) for every distinct card she could take: hand (free) or Line (T13)."""
    out = [(card, "hand", 0) for card in dict.fromkeys(st.hands[c])]
    out += [(card, "line", k + 1) for k, card in enumerate(st.line) if card is not None]
    return out


def any_card_playable(st, m: int, c: int) -> bool:
    cards = set(st.hands[c])
    cards.update(st.line)
    cards.discard(None)
    return any(playable(st, card, m, c) for card in cards)


def enter_has_card(st, h: int, c: int) -> bool:
    """Law #7 for T11: some card could be played on a new mole entering at h."""
    tile, mole, bf, nb = st.tile, st.mole, st.bf, st.geo.nb
    joined = [j for j in nb[h] if j >= 0 and tile[j] >= 0 and not bf[j]]
    tile[h] = BARRACKS + c
    mole[h] = c
    st.tiles_left[c] -= 1
    st.moles_left[c] -= 1
    before = bf[:] if joined else None
    if joined:
        absorb(st, h)
    else:
        bf[h] = 1
    try:
        return any_card_playable(st, h, c)
    finally:
        tile[h] = B.NO_TILE
        mole[h] = -1
        st.tiles_left[c] += 1
        st.moles_left[c] += 1
        if before is not None:
            bf[:] = before
        bf[h] = 0


def can_change_tile(st, m: int, c: int) -> bool:
    """T12: the tile under the mole can be turned or replaced (a crate may lie on it, nothing else)."""
    t, f = st.tile[m], st.feat[m]
    if not 0 <= t < STANDALONE or (f != NONE and f < B.CRATE):
        return False
    return t == BARRACKS + c or t == c or has_barracks_source(st, c)


def after_move_ok(st, m: int, y: int, c: int) -> bool:
    """Law #7 for T12: a mole landing on y could then play a card or change its tile."""
    mole = st.mole
    mole[m] = -1
    mole[y] = c
    try:
        return can_change_tile(st, y, c) or any_card_playable(st, y, c)
    finally:
        mole[y] = -1
        mole[m] = c


def move_actions(st, c: int) -> list[dict]:
    return [act for act, _ in moves_and_survival(st, c)]


def moves_and_survival(st, c: int) -> list[tuple[dict, bool]]:
    """Every legal move with whether the moving mole comes through it alive (it lands on a square)."""
    out = []
    geo = st.geo
    mole, flags, nb = st.mole, st.mflag, geo.nb
    for m in range(len(mole)):
        if mole[m] != c or not flags[m] & MOVABLE:
            continue
        src = geo.hex(m)
        for d in range(6):
            x = nb[m][d]
            outcome, y = trace(st, x, d, c)
            if outcome == BLOCKED:
                continue
            if outcome == LAND and not after_move_ok(st, m, y, c):
                continue
            out.append(({"type": "move", "from": src, "to": geo.step_hex(m, d)}, outcome == LAND))
    return out


def enter_actions(st, c: int) -> list[dict]:
    if st.moles_left[c] <= 0:
        return []
    geo = st.geo
    spaces = placement_spaces(st, c)
    if st.tiles_left[c] > 0:
        ok = [h for h in spaces if enter_has_card(st, h, c)]
    else:
        cands = takeback_candidates(st, c)
        ok = [h for h in spaces
              if any(still_next_to_battlefield(st, h, b)
                     and with_taken_back(st, b, lambda: enter_has_card(st, h, c)) for b in cands)]
    return [{"type": "enter", "hex": geo.hex(h)} for h in ok]


def compulsory(st, c: int) -> bool:
    """T9: no mole on the battlefield and one in reserve; a mole on an outpost is not on it (ruling T21)."""
    if st.moles_left[c] <= 0:
        return False
    mole, bf = st.mole, st.bf
    return not any(mole[x] == c and bf[x] for x in range(len(mole)))


def play_actions(st, m: int, c: int) -> list[dict]:
    out = []
    ok: dict[str, bool] = {}
    for card, source, slot in cards_at_hand(st, c):
        if card not in ok:
            ok[card] = playable(st, card, m, c)
        if ok[card]:
            act = {"type": "play", "card": card, "source": source}
            if source == "line":
                act["slot"] = slot
            out.append(act)
    return out


def choice_action(geo, ch) -> dict:
    if ch is None:
        return {"type": "target", "hex": None}
    if isinstance(ch, tuple):
        src, dst = ch
        return {"type": "target", "hex": geo.hex(dst), "from": geo.hex(src) if src >= 0 else None}
    return {"type": "target", "hex": geo.hex(ch)}


def pending_actions(st, p: dict, c: int) -> list[dict]:
    geo = st.geo
    k = p["k"]
    if k == "card":
        out = play_actions(st, p["m"], c)
        if p.get("alt") and can_change_tile(st, p["m"], c):
            out.append(dict(CHANGE_TILE))
        return out
    if k == "target":
        return [choice_action(geo, ch) for ch in targets(st, p["card"], p["m"], c)]
    if k == "direction":
        return [{"type": "direction", "dir": d} for d in targets(st, p["card"], p["m"], c)]
    if k == "keep":
        return [{"type": "keep", "hex": geo.hex(x)} for part in p["parts"] for x in part]
    if k == "dynamite":
        return [{"type": "target", "hex": geo.hex(x)} for x in free_spaces_next_to_battlefield(st)]
    if k == "take_back":
        return [{"type": "take_back", "hex": geo.hex(b)} for b in takeback_options(st, c, p["then"])]
    return []


def takeback_options(st, c: int, then: dict) -> list[int]:
    """Barracks that may be taken back for `then` without a dead end (Law #7)."""
    cands = takeback_candidates(st, c)
    h = then.get("cell")
    do = then["do"]
    if do in ("build", "place", "enter"):
        cands = [b for b in cands if still_next_to_battlefield(st, h, b)]
    if do == "enter":
        cands = [b for b in cands if with_taken_back(st, b, lambda: enter_has_card(st, h, c))]
    return cands


def turn_actions(st) -> list[dict]:
    """Every choice of the seat to act in her turn; each leads on to a complete turn (Law of War #7)."""
    c = st.cur
    if st.pending is not None:
        out = pending_actions(st, st.pending, c)
    elif st.stage in ("start", "action"):
        out = []
        if st.stage == "start" and st.medals[c] >= 3:  # ruling T21: a ransom is paid from 3 medals in hand
            out += [{"type": "ransom", "captor": s} for s in range(st.n) if st.prisoners[s][c] > 0]
        places = placement_spaces(st, c) if st.stage == "start" and compulsory(st, c) else []
        if places:
            out += [{"type": "place", "hex": st.geo.hex(h)} for h in places]
        else:
            out += action_step(st, c)
    elif st.stage == "moving":
        out = move_actions(st, c) + [dict(END_TURN)]
    else:
        out = [dict(END_TURN)]
    if st.undoable(c):
        out.append(dict(UNDO))
    return out


def action_step(st, c: int) -> list[dict]:
    """Enter into combat or move (T11, T12), and end_turn when the action step may be left out.

    It may when she has no action (T9: she skips the step), and when every action she has would
    eliminate one of her own moles (ruling T21): a move off the battlefield, onto a deadly tile or
    into a combat. Entering and a move that lands keep her moles alive (what follows is her choice).
    """
    enter = enter_actions(st, c)
    moves = moves_and_survival(st, c)
    out = enter + [act for act, _ in moves]
    if not enter and not any(alive for _, alive in moves):
        out.append(dict(END_TURN))
    return out


# --- doing it -------------------------------------------------------------------------------
def _choice(st, p: dict, action: dict):
    geo = st.geo
    if p["card"] == "farmer" and "from" in action:
        src = action["from"]
        return (geo.cell(src) if src is not None else -1, geo.cell(action["hex"]))
    return geo.cell(action["hex"]) if action["hex"] is not None else None


def apply_action(st, action: dict) -> None:
    """Carry out a legal action (already checked) for the seat to act."""
    st.events = []
    t = action["type"]
    if t == "undo":
        undo(st)
        return
    st.turn_log.append(action)
    c = st.cur
    p = st.pending
    geo = st.geo
    if t == "end_turn":
        end_turn(st)
    elif t == "ransom":
        s = action["captor"]
        st.prisoners[s][c] -= 1
        st.moles_left[c] += 1
        st.medals[c] -= 3
        st.medals[s] += 3
    elif t in ("place", "enter"):
        if t == "enter":
            st.stage = "done"
        need_barracks(st, c, {"do": t, "cell": geo.cell(action["hex"])})
    elif t == "move":
        m = geo.cell(action["from"])
        d = B.DIRECTIONS_INDEX[(action["to"][0] - action["from"][0], action["to"][1] - action["from"][1])]
        st.mflag[m] &= ~MOVABLE
        st.stage = "moving"
        y = arrive(st, c, m, geo.nb[m][d], d, c)
        if y >= 0:
            st.pending = {"k": "card", "m": y, "alt": True}
    elif t == "play":
        play_card(st, c, p["m"], action)
    elif t == "change_tile":
        change_tile(st, c, p["m"])
    elif t == "target" and p["k"] == "dynamite":
        place_dynamite(st, geo.cell(action["hex"]))
        settle(st, c)
    elif t in ("target", "direction"):
        choice = action["dir"] if t == "direction" else _choice(st, p, action)
        resolve(st, p["card"], p["m"], c, choice)
        if st.pending is None:
            settle(st, c)
    elif t == "keep":
        x = geo.cell(action["hex"])
        for part in p["parts"]:
            if x not in part:
                remove_part(st, part, c)
        st.pending = None
        settle(st, c)
    elif t == "take_back":
        st.pending = None
        take_back(st, c, geo.cell(action["hex"]))
        finish_placement(st, c, p["then"])


def play_card(st, c: int, m: int, action: dict) -> None:
    """T13: take the card from hand or Line (paying the slot), discard it to her pile, then its effect."""
    card = action["card"]
    if action["source"] == "hand":
        st.hands[c].remove(card)
        st.hand_used += 1
    else:
        k = action["slot"] - 1
        st.line[k] = None
        st.line_used.append(k)
        st.medals[c] += st.opts["line_values"][k]
    st.piles[c].append(card)
    choices = targets(st, card, m, c)
    if choices == [None]:
        resolve(st, card, m, c, None)
        if st.pending is None:
            settle(st, c)
    else:
        st.pending = {"k": "direction" if KIND[card] == DIRECTION else "target", "card": card, "m": m}


def change_tile(st, c: int, m: int) -> None:
    """T12: own barracks turns neutral; any other tile is replaced by one of her barracks."""
    st.pending = None
    t = st.tile[m]
    if t == BARRACKS + c:
        st.tile[m] = c
        st.events.append(ev("barracks_neutral", seat=c, hex=at(st.geo, m)))
    elif t == c:
        st.tile[m] = BARRACKS + c
        st.events.append(ev("tile_barracks", seat=c, hex=at(st.geo, m)))
    else:
        need_barracks(st, c, {"do": "change", "cell": m})


def undo(st) -> None:
    """Take back the last decision of the turn: back to the turn's start, then replay the others (S3)."""
    snap = st.snap
    log = st.turn_log[:-1]
    st.__dict__.update(snap.clone().__dict__)
    st.snap = snap
    for a in log:
        apply_action(st, a)
    st.events = []

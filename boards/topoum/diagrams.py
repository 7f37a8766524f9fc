"""Topoum's How to play diagrams: the starting battlefield, and a turn opening a line of sight (its presenter draws).

Positions reached by legal actions from fixed seeds (boards.registry explains why; found by game_module).
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import get_game

from . import presenter

# A three-player setup spread round the centre (ruling T1 coordinates): the ring barracks of step 2, then
# each player's barracks with a mole (step 3), in seat order from the start player.
RING = ([1, -1], [-1, 0], [0, 1])
MOLES = ([2, -2], [-2, 0], [0, 2])


def _pick(legal: list[dict], wanted) -> dict:
    """The legal placement on `wanted`, or the first legal one (the setup stays legal whatever happens)."""
    return next((a for a in legal if a.get("hex") == list(wanted)), legal[0])


def _set_up(game):
    """A three-player battlefield after setup, red (seat 0) to start, the ring and moles where RING and MOLES say."""
    seed = next(
        f"rules-topoum-{i}"
        for i in range(100)
        if game.new_state(3, {"deck": "preset", "preset": "recruits"}, f"rules-topoum-{i}").start == 0
    )
    state = game.new_state(3, {"deck": "preset", "preset": "recruits"}, seed)
    ring, moles = iter(RING), iter(MOLES)
    while state.view(None)["phase"] == "setup":
        seat = state.to_act()[0]
        step = state.view(None)["step"]
        legal = state.legal_actions(seat)
        wanted = next(ring) if step == "ring" else next(moles) if step == "mole" else legal[0]["hex"]
        state.apply(seat, _pick(legal, wanted))
    return state


def _best_first_turn(state, seat: int) -> tuple[dict, dict, dict]:
    """Enter into combat (ruling T11) everywhere, play each card on the new mole and finish its targets with the
    first choice offered: the turn whose one new line of sight is worth most (its view, the entry, the card)."""
    best = None
    for enter in [a for a in state.legal_actions(seat) if a["type"] == "enter"]:
        entered = state.clone()
        entered.apply(seat, enter)
        for play in [a for a in entered.legal_actions(seat) if a["type"] == "play"]:
            trial = entered.clone()
            trial.apply(seat, play)
            while (trial.view(seat).get("turn") or {}).get("pending"):
                trial.apply(seat, trial.legal_actions(seat)[0])
            lines = trial.view(seat).get("new_lines") or []
            value = sum(line["medals"] for line in lines)
            free = play["source"] == "hand"  # a card from the hand costs nothing: prefer it at equal value
            if len(lines) == 1 and (best is None or (value, free) > best[0]):
                best = ((value, free), trial.view(seat), enter, play)
    _, turn_view, enter, play = best
    return turn_view, enter, play


def _line_squares(turn_view: dict) -> tuple[int, int]:
    """How many squares the new line of sight spans, and how many of them are red's own barracks."""
    line = turn_view["new_lines"][0]
    cells = {tuple(c["hex"]): c for c in turn_view["board"]}
    steps = max(
        abs(line["from"][0] - line["to"][0]),
        abs(line["from"][1] - line["to"][1]),
        abs(line["from"][0] + line["from"][1] - line["to"][0] - line["to"][1]),
    )
    squares = steps + 1
    dq, dr = ((line["to"][0] - line["from"][0]) // steps, (line["to"][1] - line["from"][1]) // steps)
    own = sum(
        1
        for k in range(squares)
        if (c := cells.get((line["from"][0] + k * dq, line["from"][1] + k * dr)))
        and c.get("tile") == "barracks"
        and c.get("colour") == 0
    )
    return squares, own


@lru_cache(maxsize=1)
def positions() -> dict:
    """The starting battlefield (rulings T1-T4) and a first turn that opens a line of sight (ruling T18)."""
    state = _set_up(get_game("topoum"))
    start = state.view(None)
    seat = state.to_act()[0]
    turn_view, enter, play = _best_first_turn(state, seat)
    squares, own = _line_squares(turn_view)
    return {
        "start": start,
        "turn": turn_view,
        "seat": seat,
        "card": play["card"],
        "slot": play.get("slot"),
        "entered": enter["hex"],
        "medals": turn_view["new_lines"][0]["medals"],
        "squares": squares,
        "own_barracks": own,
    }


def _cropped(board: dict, margin: float = 2.2) -> dict:
    """The battlefield framed round its tiles, `margin` spaces wide, so a detail stays legible on a phone."""
    xs = [float(t["x"]) for t in board["tiles"]]
    ys = [float(t["y"]) for t in board["tiles"]]
    pad_x = margin * 2 * presenter.APOTHEM
    pad_y = margin * 1.5 * presenter.SIZE
    x0, y0 = min(xs) - pad_x, min(ys) - pad_y
    box = (x0, y0, max(xs) + pad_x - x0, max(ys) + pad_y - y0)
    return {**board, "view_box": " ".join(f"{v:.1f}" for v in box)}


def diagrams() -> dict:
    found = positions()
    names = ["Red", "Blue", "Yellow"]
    start = presenter.present({"view": found["start"], "legal_actions": [], "my_seat": None}, names)
    turn = presenter.present({"view": found["turn"], "legal_actions": [], "my_seat": None}, names)
    categories = found["start"]["card_categories"]
    return {
        "start": start["board"],
        "turn": _cropped(turn["board"]),
        "line": [presenter.card_info(card, categories) for card in found["start"]["line"]],
        "line_values": found["start"]["options"]["line_values"],
        "card": presenter.card_info(found["card"], categories),
        "slot": found["slot"],
        "slot_value": found["start"]["options"]["line_values"][found["slot"] - 1] if found["slot"] else 0,
        "entered": found["entered"],
        "medals": found["medals"],
        "squares": found["squares"],
        "own_barracks": found["own_barracks"],
    }

"""Real positions for the How to play pages, built with the engines and drawn by the table's presenters.

Each diagram is a position reached by applying legal actions to a new game from a fixed seed, so it is
exactly what a table would show at that point; nothing is drawn by hand.  The engine work is done once
per process (lru_cache: the seeds are fixed, so the positions never change); the presenters run on
every request because their labels follow the reader's language.
"""
from __future__ import annotations

from functools import lru_cache

from engine.core import get_game
from engine.toppo.cards import COLOURS, SYMBOLS, card_json, match_choices, top_orders

from .presenters import topology as topology_presenter
from .presenters import topoum as topoum_presenter
from .presenters import toppo as toppo_presenter

# --- Topoum ---------------------------------------------------------------------------------------------
# A three-player setup spread round the centre (ruling T1 coordinates): the ring barracks of step 2, then
# each player's barracks with a mole (step 3), in seat order from the start player.
TOPOUM_RING = ([1, -1], [-1, 0], [0, 1])
TOPOUM_MOLES = ([2, -2], [-2, 0], [0, 2])


def _pick(legal: list[dict], wanted) -> dict:
    """The legal placement on `wanted`, or the first legal one (the setup stays legal whatever happens)."""
    return next((a for a in legal if a.get("hex") == list(wanted)), legal[0])


@lru_cache(maxsize=1)
def topoum_positions() -> dict:
    """The starting battlefield (rulings T1-T4) and a first turn that opens a line of sight (ruling T18)."""
    game = get_game("topoum")
    seed = next(f"rules-topoum-{i}" for i in range(100)
                if game.new_state(3, {"deck": "preset", "preset": "recruits"}, f"rules-topoum-{i}").start == 0)
    state = game.new_state(3, {"deck": "preset", "preset": "recruits"}, seed)  # red (seat 0) starts
    ring, moles = iter(TOPOUM_RING), iter(TOPOUM_MOLES)
    while state.view(None)["phase"] == "setup":
        seat = state.to_act()[0]
        step = state.view(None)["step"]
        legal = state.legal_actions(seat)
        wanted = next(ring) if step == "ring" else next(moles) if step == "mole" else legal[0]["hex"]
        state.apply(seat, _pick(legal, wanted))
    start = state.view(None)
    seat = state.to_act()[0]
    best = None
    # Enter into combat (ruling T11) everywhere, play each card on the new mole and finish its targets with the
    # first choice offered: keep the turn whose new line of sight is worth most.
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
    line = turn_view["new_lines"][0]
    cells = {tuple(c["hex"]): c for c in turn_view["board"]}
    steps = max(abs(line["from"][0] - line["to"][0]), abs(line["from"][1] - line["to"][1]),
                abs(line["from"][0] + line["from"][1] - line["to"][0] - line["to"][1]))
    squares = steps + 1
    dq, dr = ((line["to"][0] - line["from"][0]) // steps, (line["to"][1] - line["from"][1]) // steps)
    own = sum(1 for k in range(squares)
              if (c := cells.get((line["from"][0] + k * dq, line["from"][1] + k * dr)))
              and c.get("tile") == "barracks" and c.get("colour") == 0)
    return {"start": start, "turn": turn_view, "seat": seat, "card": play["card"], "slot": play.get("slot"),
            "entered": enter["hex"], "medals": line["medals"], "squares": squares, "own_barracks": own}


def _cropped(board: dict, margin: float = 2.2) -> dict:
    """The battlefield framed round its tiles, `margin` spaces wide, so a detail stays legible on a phone."""
    xs = [float(t["x"]) for t in board["tiles"]]
    ys = [float(t["y"]) for t in board["tiles"]]
    pad_x = margin * 2 * topoum_presenter.APOTHEM
    pad_y = margin * 1.5 * topoum_presenter.SIZE
    x0, y0 = min(xs) - pad_x, min(ys) - pad_y
    box = (x0, y0, max(xs) + pad_x - x0, max(ys) + pad_y - y0)
    return {**board, "view_box": " ".join(f"{v:.1f}" for v in box)}


def topoum_diagrams() -> dict:
    found = topoum_positions()
    names = ["Red", "Blue", "Yellow"]
    start = topoum_presenter.present({"view": found["start"], "legal_actions": [], "my_seat": None}, names)
    turn = topoum_presenter.present({"view": found["turn"], "legal_actions": [], "my_seat": None}, names)
    categories = found["start"]["card_categories"]
    return {
        "start": start["board"], "turn": _cropped(turn["board"]),
        "line": [topoum_presenter.card_info(card, categories) for card in found["start"]["line"]],
        "line_values": found["start"]["options"]["line_values"],
        "card": topoum_presenter.card_info(found["card"], categories), "slot": found["slot"],
        "slot_value": found["start"]["options"]["line_values"][found["slot"] - 1] if found["slot"] else 0,
        "entered": found["entered"], "medals": found["medals"], "squares": found["squares"],
        "own_barracks": found["own_barracks"],
    }


# --- Topology -------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def topology_positions() -> dict:
    """The start tile (ruling L5) and the first turn, played by the greedy bot, that closes a ring around another
    (rulings L3, L4)."""
    from engine.bots import play_turn
    game = get_game("topology")
    for attempt in range(20):
        state = game.new_state(2, {}, f"rules-topology-{attempt}")
        start = state.view(None)
        for turn in range(20):
            if state.is_over():
                break
            play_turn("greedy", game, state, state.to_act()[0], f"rules-{attempt}-{turn}")
            view = state.view(None)
            last = (view.get("history") or [None])[-1]
            if last and any(ring.get("inner") for ring in last["rings"]):
                return {"start": start, "after": view, "turn": last}
    raise LookupError("no nested ring found for the Topology diagram")


def topology_diagrams() -> dict:
    found = topology_positions()
    start = topology_presenter.present({"view": found["start"], "legal_actions": [], "my_seat": None}, ["", ""])
    after = topology_presenter.present({"view": found["after"], "legal_actions": [], "my_seat": None}, ["", ""])
    turn = found["turn"]
    # The rings of the turn, each with the rings inside it (ruling L4): the sum the page shows is the engine's.
    parts = []
    for ring in turn["rings"]:
        parts += [ring["value"], *ring.get("inner", [])]
    return {"start": start, "after": after, "points": turn["points"], "rings": turn["rings"],
            "sum": " + ".join(str(p) for p in parts), "tiles": len(found["after"]["board"])}


# --- Toppo ----------------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def toppo_positions() -> dict:
    """A correspondence deal where seat 0's line can top the display, what the display shows once the round is
    resolved (ruling P4), and a deal where her line can match (rulings P2, P3)."""
    game = get_game("toppo")
    top = match = None
    for i in range(500):
        state = game.new_state(3, {"pace": "correspondence"}, f"rules-toppo-{i}")
        tops = [pile[-1] for pile in state.display]
        line = state.lines[0]
        if top is None and top_orders(line, tops):
            order = top_orders(line, tops)[0]
            before = state.view(0)
            state.apply(0, {"type": "top", "order": order})
            for seat in state.to_act():
                state.apply(seat, {"type": "renew"})
            top = {"before": before, "after": state.view(0), "order": order}
        elif match is None and match_choices(line, tops):
            match = {"before": state.view(0), "pairs": match_choices(line, tops)[0]}
        if top and match:
            return {"top": top, "match": match}
    raise LookupError("no deal found for the Toppo diagrams")


def toppo_diagrams() -> dict:
    found = toppo_positions()
    names = ["", "", ""]

    def board(view):
        return toppo_presenter.present({"view": view, "legal_actions": [], "my_seat": 0}, names)

    top, match = found["top"], found["match"]
    before = board(top["before"])
    # The line laid in the topping order, each card under the display card it goes on.
    laid = [before["my_line"][j]["card"] for j in top["order"]]
    match_board = board(match["before"])
    pairs = [{"line": match_board["my_line"][j]["card"], "line_pos": j + 1, "display_pos": d + 1}
             for j, d in match["pairs"]]
    kinds = [[toppo_presenter.card(card_json(colour * len(SYMBOLS) + symbol)) for symbol in range(len(SYMBOLS))]
             for colour in range(len(COLOURS))]  # every kind of card (ruling P1), a row per colour
    after = board(top["after"])
    return {"kinds": kinds, "top_line_display": [p["card"] for p in before["display"]],
            "top_line": [line["card"] for line in before["my_line"]], "top_laid": laid,
            "top_after_display": [p["card"] for p in after["display"]],
            "match_display": [p["card"] for p in match_board["display"]],
            "match_line": [line["card"] for line in match_board["my_line"]],
            "match_pairs": pairs, "priority": before["priority"]}


DIAGRAMS = {"topoum": topoum_diagrams, "topology": topology_diagrams, "toppo": toppo_diagrams}


def diagrams_for(kind: str) -> dict:
    return DIAGRAMS[kind]()

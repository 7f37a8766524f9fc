"""Table options, the new game (deck, hands, Line, farmer tiles) and the initial battlefield steps."""

from __future__ import annotations

from engine.core import InvalidOptions, Option, make_rng

from .board import BARRACKS, at, ev
from .cards import CARD_NAMES, PRESETS, TYPES_PER_DECK, build_deck, missing_categories, random_types
from .farmers import FARMERS, USES_OBSTACLE_TILES, setup_centre, setup_zones
from .movement import free_spaces_next_to_battlefield, place_tile
from .obstacles import place_obstacle, placement_actions

DEFAULT_LINE_VALUES = [-2, -1, 0, 1, 2]  # ruling T5

OPTIONS = (
    Option(
        "deck",
        "choice",
        "preset",
        ("preset", "random", "custom"),
        label="Action deck",
        help="A preset deck, seven random types (one of each category at least), or the types you choose.",
    ),
    Option(
        "preset",
        "choice",
        "recruits",
        tuple(PRESETS),
        label="Preset",
        help="Recruits, Tacticians, Duel (2 players) or Strategists.",
    ),
    Option(
        "types",
        "list",
        [],
        CARD_NAMES,
        label="Card types",
        help="For a custom deck: seven card types with at least one of each category.",
    ),
    Option(
        "farmer",
        "choice",
        "random",
        ("random",) + tuple(FARMERS),
        label="Farmer",
        help="Used when 'Farmer is coming!' is in the deck.",
    ),
    Option("obstacles", "bool", False, label="Obstacles (expert variant)"),
    Option("radius", "int", 6, label="Board radius", min_value=4, max_value=10),
    Option(
        "line_values",
        "list",
        list(DEFAULT_LINE_VALUES),
        label="Line of Operations medals",
        help="Medals gained (or lost) for taking the card in slots 1 to 5.",
    ),
)


def check_options(players: int, options: dict) -> dict:
    """Cross-option checks of ruling T6 and T7; returns the cleaned options."""
    options = dict(options)
    if options["deck"] == "preset":
        if options["preset"] == "duel" and players != 2:
            raise InvalidOptions("topoum.options.duel_players", {"game": "topoum", "players": players})
        options["types"] = list(PRESETS[options["preset"]])
    elif options["deck"] == "custom":
        types = options["types"]
        if len(set(types)) != TYPES_PER_DECK or len(types) != TYPES_PER_DECK:
            raise InvalidOptions("topoum.options.deck_size", {"game": "topoum", "size": TYPES_PER_DECK})
        missing = missing_categories(types)
        if missing:
            raise InvalidOptions("topoum.options.categories", {"game": "topoum", "missing": list(missing)})
        options["types"] = sorted(types, key=CARD_NAMES.index)
    else:
        options["types"] = []  # drawn in new_state
    if obstacle_farmer(options) and "farmer" in options["types"]:
        # Rulings T7, T21: refused only when the deck holds "Farmer is coming!"; without it the farmer option
        # is ignored, and a random deck is drawn without it (random_deck_leaves_out).
        raise InvalidOptions("topoum.options.obstacle_farmer_deck", {"game": "topoum", "farmer": options["farmer"]})
    values = options["line_values"]
    if len(values) != 5 or any(isinstance(v, bool) or not isinstance(v, int) or not -10 <= v <= 10 for v in values):
        raise InvalidOptions("topoum.options.line_values", {"game": "topoum", "count": 5, "min": -10, "max": 10})
    options["line_values"] = list(values)
    return options


def obstacle_farmer(options: dict) -> bool:
    """Obstacles with a farmer chosen among those whose tiles the obstacle variant uses (ruling T7)."""
    return bool(options.get("obstacles")) and options.get("farmer") in USES_OBSTACLE_TILES


def random_deck_leaves_out(options: dict) -> tuple[str, ...]:
    """Ruling T21 (turn 3): with obstacles and an obstacle farmer, a random deck is drawn without "Farmer is
    coming!", so the farmer never has to bring the obstacle tiles; any other random deck may hold every type."""
    return ("farmer",) if obstacle_farmer(options) else ()


def new_state(state_cls, players: int, opts: dict, seed):
    """Deal a new game: start player, deck, hands, Line, farmer and its zone tiles (rulings G0.1, T6-T8)."""
    st = state_cls(players, opts, seed)
    rng = make_rng(seed, st.rng_counter)
    st.rng_counter += 1
    st.start = rng.randrange(players)
    types = list(opts["types"]) or random_types(rng, random_deck_leaves_out(opts))
    st.opts = dict(opts, types=types)
    if "farmer" in types:
        f = opts["farmer"]
        if f == "random":
            pool = [k for k in FARMERS if not (opts["obstacles"] and k in USES_OBSTACLE_TILES)]
            f = rng.choice(pool)
        st.farmer = f
    st.deck = build_deck(types, players, rng)
    for s in range(players):
        st.hands[s] = [st.deck.pop(), st.deck.pop()]
    st.line = [st.deck.pop() for _ in range(5)]
    setup_zones(st, rng)
    st.phase, st.step = "setup", "centre"
    st.cur = st.start
    st.order = [st.start]
    return st


def seats_from(state, first: int, step: int = 1) -> list[int]:
    return [(first + step * i) % state.n for i in range(state.n)]


def setup_actions(state) -> list[dict]:
    """Legal choices of the current setup step (each a decision of the seat to play)."""
    geo = state.geo
    if state.step == "centre":
        return [{"type": "place", "hex": geo.hex(geo.centre)}]
    if state.step == "ring":
        return [{"type": "place", "hex": geo.hex(x)} for x in geo.nb[geo.centre] if x >= 0 and state.tile[x] < 0]
    if state.step == "mole":
        return [{"type": "place", "hex": geo.hex(x)} for x in free_spaces_next_to_battlefield(state)]
    return placement_actions(state)


def apply_setup(state, action: dict) -> None:
    """Carry out one setup decision and move on to the next seat or step, or into play."""
    c = state.cur
    geo = state.geo
    x = geo.cell(action["hex"])
    if state.step == "centre":
        setup_centre(state)
        state.events.append(ev("centre_laid", seat=c, hex=at(geo, x)))
        state.step, state.order = "ring", seats_from(state, state.start)
    elif state.step == "ring":
        place_tile(state, x, BARRACKS + c)
        state.order.pop(0)
    elif state.step == "mole":
        place_tile(state, x, BARRACKS + c)
        state.mole[x] = c
        state.moles_left[c] -= 1
        state.order.pop(0)
    else:
        place_obstacle(state, action["kind"], x)
        state.order.pop(0)
    if not state.order:
        if state.step == "ring":
            state.step, state.order = "mole", seats_from(state, state.start)
        elif state.step == "mole" and state.opts["obstacles"]:
            # ruling T16: from the last player backwards, twice
            state.step, state.order = "obstacle", seats_from(state, (state.start - 1) % state.n, -1)
        elif state.step == "obstacle":
            state.step, state.order = "outpost", seats_from(state, (state.start - 1) % state.n, -1)
        else:
            state.phase, state.step = "play", ""
            state.cur = state.start
            return  # the first turn begins (rules.apply)
    state.cur = state.order[0]

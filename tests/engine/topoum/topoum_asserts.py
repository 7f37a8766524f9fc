"""Helpers for the per-card, per-farmer and per-obstacle tests: fields, activating a mole, reading the result.

The expectations in the tests come from the rulebook and RULINGS.md; these helpers only build
positions and read the state through the position builder's accessors and the legal action list.
"""

from __future__ import annotations

from topoum_positions import Position, acts, do, mole_at, seat_of, tile_at

from engine.hexgrid import distance, neighbours
from engine.topoum import board as B

RED, BLUE, YELLOW, BLACK = "red", "blue", "yellow", "black"
A = (0, 0)  # where Red's mole becomes the active mole in most positions
START = (-1, 0)  # Red's barracks, where her mole starts
EAST, NE, NW, WEST, SW, SE = range(6)  # directions as in engine.hexgrid


def disc(radius=2, centre=(0, 0)) -> list[tuple[int, int]]:
    """Every hex within `radius` of `centre`."""
    cq, cr = centre
    return [
        (cq + q, cr + r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((0, 0), (q, r)) <= radius
    ]


def field(pos, radius=2, centre=(0, 0), without=()):
    """Neutral tiles on a disc of squares (colours of the unused black/yellow reserves), minus `without`."""
    skip = {tuple(h) for h in without}
    for k, h in enumerate(h for h in disc(radius, centre) if h not in skip):
        pos.neutral(h, colour=3 if k % 2 == 0 else 2)
    return pos


def red_to_act(players=2, without=(), radius=2, **options):
    """A field (see `field`) with Red's mole on her barracks at START; `options` go to Position (farmer=,
    obstacles=)."""
    pos = Position(players=players, **options)
    field(pos, radius=radius, without=without)
    pos.barracks(RED, START).mole(RED, START)
    return pos


def red_holding(pos, cards):
    """Build the position with Red to act, holding `cards`; nothing moved yet."""
    pos.hand(RED, list(cards))
    return pos.build(cur=RED)


def go(pos, cards):
    """Build with Red to act, holding `cards`, and make A her active mole."""
    st = red_holding(pos, cards)
    activate(st, START, A)
    return st


def move(st, frm, to) -> None:
    """The seat to act moves her mole from `frm` one space to `to` (T12)."""
    do(st, **{"type": "move", "from": list(frm), "to": list(to)})


def activate(st, frm, to) -> None:
    """Move a mole onto a free square: it becomes the active mole and a card may be played on it."""
    move(st, frm, to)
    assert mole_at(st, to) == st.cur, f"the mole did not land on {to}"
    assert acts(st, type="play") or acts(st, type="change_tile"), "no card decision after the move"


def move_targets(st, frm) -> set[tuple[int, int]]:
    """Where the engine lets the seat to act move her mole from `frm`."""
    return {tuple(a["to"]) for a in acts(st, type="move") if tuple(a["from"]) == tuple(frm)}


def offered(st) -> set[str]:
    """Names of the cards the engine lets the seat to act play now."""
    return {a["card"] for a in acts(st, type="play")}


def copy(st):
    return type(st).from_json(st.to_json())


def choices(st, card, source="hand"):
    """What the card would let the player choose, without touching st: a set of hexes, of directions, or None."""
    trial = copy(st)
    do(trial, type="play", card=card, source=source)
    if acts(trial, type="direction"):
        return {a["dir"] for a in acts(trial, type="direction")}
    targets = acts(trial, type="target")
    if not targets:
        return None
    return {tuple(a["hex"]) if a["hex"] is not None else None for a in targets}


def play(st, card, hex=None, dir=None, source="hand", **extra) -> None:
    """Play a card from the hand on the active mole, then give its target or direction."""
    do(st, type="play", card=card, source=source)
    if dir is not None:
        do(st, type="direction", dir=dir)
    elif hex is not None:
        do(st, type="target", hex=list(hex), **extra)


def medals(st, colour) -> int:
    return st.medals[seat_of(colour)]


def reserve(st, colour) -> int:
    """Moles in that colour's reserve (not counting prisoners held by others)."""
    return st.moles_left[seat_of(colour)]


def tiles_in_reserve(st, colour) -> int:
    return st.tiles_left[seat_of(colour)]


def moles_of(st, colour) -> set[tuple[int, int]]:
    """Hexes where the colour's moles stand."""
    s = seat_of(colour)
    return {tuple(st.geo.hex(x)) for x in range(st.geo.size) if st.mole[x] == s}


def has_tile(st, h) -> bool:
    return tile_at(st, h) >= 0


def is_barracks(st, h, colour) -> bool:
    return tile_at(st, h) == B.BARRACKS + seat_of(colour)


def is_neutral(st, h, colour=None) -> bool:
    t = tile_at(st, h)
    return 0 <= t < B.BARRACKS and (colour is None or t == seat_of(colour))


def feature(st, h):
    """Name of the farmer or obstacle tile on h ('crate' for any crate), or None."""
    f = st.feat[st.geo.cell(h)]
    if f >= B.CRATE:
        return "crate"
    return B.FEATURE_NAMES.get(f)


def red_cross_at(st):
    """Where the Red Cross piece stands, None when it is beside the board."""
    return tuple(st.geo.hex(st.rc)) if st.rc >= 0 else None


def squares(st) -> set[tuple[int, int]]:
    return {tuple(st.geo.hex(x)) for x in range(st.geo.size) if st.tile[x] >= 0}


def free_spaces_next_to(st, cells) -> set[tuple[int, int]]:
    """Board spaces without a tile next to any of `cells` (computed from geometry, not from the engine)."""
    out = set()
    for c in cells:
        for n in neighbours(tuple(c)):
            if st.geo.cell(n) >= 0 and not has_tile(st, n):
                out.add(n)
    return out


def end_turn_gain(st, colour) -> int:
    """Ends the current turn and returns how many medals `colour` gained by it (lines of sight, Press)."""
    before = medals(st, colour)
    do(st, type="end_turn")
    return medals(st, colour) - before


def outposts(st) -> set[tuple[int, int]]:
    """Squares that are not (yet) part of the battlefield, read from the acting seat's view (ruling T3).

    (Her turn shows to the others only once she confirms it, ruling S3.)"""
    return {tuple(c["hex"]) for c in st.view(st.cur)["board"] if c.get("outpost")}

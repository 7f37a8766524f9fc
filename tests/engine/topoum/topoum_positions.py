"""Building Topoum positions for tests in a few lines, and acting on them by partial actions.

pos = Position(players=3)
pos.neutral((0, 0)).barracks("red", (1, 0), (2, 0)).mole("red", (1, 0))
pos.hand("red", ["grenade", "advance"])
st = pos.build(cur="red")            # the start of Red's turn, in play
do(st, type="enter", hex=[0, 1])     # applies the single legal action that matches
"""

from __future__ import annotations

from engine.core import get_game
from engine.topoum import board as B
from engine.topoum.board import COLOURS, CRATE, FEATURE_CODES, STANDALONE
from engine.topoum.turn import begin_turn

GAME = get_game("topoum")
DEFAULT_TYPES = [
    "short_range",
    "grenade",
    "advance",
    "motorbike_patrol",
    "build_barracks",
    "conquest",
    "medal_of_honor",
]


def seat_of(colour) -> int:
    return colour if isinstance(colour, int) else COLOURS.index(colour)


class Position:
    """An empty board in play phase, filled by chained calls, finished by build()."""

    def __init__(self, players=2, farmer=None, radius=6, start=0, obstacles=False, types=None):
        opts = {"deck": "custom", "types": list(types or DEFAULT_TYPES), "radius": radius}
        st = self.st = GAME.new_state(players, opts, seed="position")
        size = st.geo.size
        st.tile = [B.NO_TILE] * size
        st.feat = [B.NONE] * size
        st.bf = [0] * size
        st.mole = [-1] * size
        st.mflag = [0] * size
        st.hands = [[] for _ in range(players)]
        st.piles = [[] for _ in range(players)]
        st.line = [None] * 5
        st.deck = []
        st.farmer = farmer
        st.pool = 0
        st.crate_values = [0, 2, 3, 5] if farmer == "lord_of_the_crates" else []
        st.opts = dict(st.opts, obstacles=obstacles)
        st.start = start
        self.outposts = set()
        self._tiles: dict[int, int] = {}  # reserve counts forced by reserve_tiles()

    def cell(self, h) -> int:
        x = self.st.geo.cell(h)
        assert x >= 0, f"{h} is off the board"
        return x

    def barracks(self, colour, *hexes):
        for h in hexes:
            self.st.tile[self.cell(h)] = B.BARRACKS + seat_of(colour)
        return self

    def neutral(self, *hexes, colour=0):
        for h in hexes:
            self.st.tile[self.cell(h)] = seat_of(colour)
        return self

    def area(self, radius=3, colour=2):
        """Neutral tiles on every space within `radius` of the centre (colour 2 is unused with 2 players)."""
        from engine.hexgrid import hexagon

        return self.neutral(*hexagon(radius), colour=colour)

    def clear(self, *hexes):
        """No tile on these spaces."""
        for h in hexes:
            x = self.cell(h)
            self.st.tile[x] = B.NO_TILE
            self.st.feat[x] = B.NONE
        return self

    def mole(self, colour, *hexes):
        for h in hexes:
            x = self.cell(h)
            assert self.st.tile[x] >= 0, f"put a tile under the mole at {h}"
            self.st.mole[x] = seat_of(colour)
        return self

    def obstacle(self, kind, *hexes):
        """An obstacle-variant tile (or the dynamite): a square by itself."""
        for h in hexes:
            x = self.cell(h)
            self.st.tile[x] = STANDALONE
            self.st.feat[x] = FEATURE_CODES[kind]
        return self

    def feature(self, kind, *hexes):
        """A farmer tile lying on the base tile already there."""
        for h in hexes:
            x = self.cell(h)
            assert self.st.tile[x] >= 0, f"put a base tile under the {kind} at {h}"
            self.st.feat[x] = FEATURE_CODES[kind]
        return self

    def crate(self, k, h):
        x = self.cell(h)
        assert self.st.tile[x] >= 0
        self.st.feat[x] = CRATE + k
        return self

    def crates(self, values):
        self.st.crate_values = list(values)
        return self

    def knows(self, colour, k):
        self.st.crate_known[seat_of(colour)].append(k)
        return self

    def red_cross(self, h):
        self.st.rc = self.cell(h)
        return self

    def outpost(self, *hexes):
        self.outposts.update(self.cell(h) for h in hexes)
        return self

    def hand(self, colour, cards):
        self.st.hands[seat_of(colour)] = list(cards)
        return self

    def pile(self, colour, cards):
        self.st.piles[seat_of(colour)] = list(cards)
        return self

    def line(self, cards):
        """Slots 1..5 in order; None for an empty slot."""
        cards = list(cards) + [None] * (5 - len(cards))
        self.st.line = cards
        return self

    def deck(self, cards):
        """The deck from the top down."""
        self.st.deck = list(reversed(cards))
        return self

    def medals(self, colour, value):
        self.st.medals[seat_of(colour)] = value
        return self

    def press(self, colour):
        self.st.press = seat_of(colour)
        return self

    def prisoners(self, captor, owner, count=1):
        self.st.prisoners[seat_of(captor)][seat_of(owner)] = count
        return self

    def pool(self, count):
        self.st.pool = count
        return self

    def reserve_tiles(self, colour, count):
        self._tiles[seat_of(colour)] = count
        return self

    def build(self, cur=0) -> object:
        """Finish: battlefield flags, reserves from what is on the board, then the start of cur's turn."""
        st = self.st
        for x in range(st.geo.size):
            st.bf[x] = 1 if st.tile[x] >= 0 and x not in self.outposts else 0
        st.tiles_left = [16 - sum(1 for t in st.tile if 0 <= t < STANDALONE and t & 3 == c) for c in range(4)]
        for c, k in self._tiles.items():
            st.tiles_left[c] = k
        st.moles_left = [4 - st.mole.count(c) - sum(st.prisoners[s][c] for s in range(st.n)) for c in range(st.n)]
        st.phase, st.step, st.order = "play", "", []
        st.cur = seat_of(cur)
        st._legal = None
        begin_turn(st)
        return st


# --- acting ---------------------------------------------------------------------------------
def H(q, r) -> list[int]:
    return [q, r]


def matches(action: dict, spec: dict) -> bool:
    return all(action.get(k) == (list(v) if isinstance(v, tuple) else v) for k, v in spec.items())


def acts(st, **spec) -> list[dict]:
    """Legal actions of the seat to act that match every given key."""
    return [a for a in st.legal_actions(st.cur) if matches(a, spec)]


def hexes(st, **spec) -> set[tuple[int, int]]:
    """The 'hex' of every matching legal action, as tuples."""
    return {tuple(a["hex"]) for a in acts(st, **spec) if a.get("hex") is not None}


def do(st, **spec) -> dict:
    """Apply the one legal action matching spec (the first if several equal ones match)."""
    found = acts(st, **spec)
    assert found, f"no legal action matches {spec}; legal: {st.legal_actions(st.cur)}"
    st.apply(st.cur, found[0])
    return found[0]


def play(st, card, source="hand", slot=None, **target) -> None:
    """Play a card on the active mole, then its target/direction if given."""
    spec = {"type": "play", "card": card, "source": source}
    if slot is not None:
        spec["slot"] = slot
    do(st, **spec)
    if target:
        kind = "direction" if "dir" in target else "target"
        do(st, type=kind, **target)


def activate(st, frm=(-1, 0), to=(0, 0)) -> None:
    """Move a mole onto a free square so that a card can be played on it (ruling T12)."""
    do(st, type="move", **{"from": list(frm), "to": list(to)})
    assert st.pending and st.pending["k"] == "card", "the mole did not land on a free square"


def card_plays(st, card) -> list[dict]:
    return acts(st, type="play", card=card)


def mole_at(st, h) -> int:
    """The seat of the mole on h, -1 when none."""
    return st.mole[st.geo.cell(h)]


def tile_at(st, h) -> int:
    return st.tile[st.geo.cell(h)]


def feature_at(st, h) -> int:
    return st.feat[st.geo.cell(h)]

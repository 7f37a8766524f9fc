"""Expert's Topology turn planner (decision 30, point 2): the turn's tiles planned together, against the rival's reply.

Strong decides one placement at a time and weighs it by playouts whose rival closes rings with single tiles only.
Most of a turn's points come from rings its own tiles build together (one tile leads a line round, the next closes
it), and most of what a turn gives away is what the rival's three tiles can then close.  So the planner:

  1. follows every first placement worth a look to the end of the turn on its own (a narrow beam): the placements
     that close a ring, those that let another tile of the hand close one (a line led round to within one tile of
     its other end), and a few quiet ones that leave the rival the least (a beam shared by all first placements
     kept too few of them: it missed turns strong found);
  2. scores each end of turn by the points the turn makes, minus the rival's best reply (her closing and
     ring-building options, points only) averaged over sampled hands of hers, plus a small share of the rings one
     tile of ours could close;
  3. plays the first placement of the best sequence; the next decision of the turn plans again from there.

It reads only a determinised sample of the seat's view (ruling S2): the face-down tiles as a set, never their
order (the rival's hands are drawn from that set with the bot's own generator).  Every loop asks the decision's
deadline and the best plan so far is played when it passes.
"""

from __future__ import annotations

import math
import random

from engine.core import Action
from engine.hexgrid import DIRECTIONS, distance, neighbour

from .geometry import end_positions, second_cell
from .lines import Trial, end_index, line_index, place_action, random_spot, turn_points
from .tiles import design_of, partners, symmetric

WIDTH = 3  # positions kept per step of the beam that finishes the turn after each first placement
FIRST_CLOSES = 24  # ring-closing placements tried first (those closing the most curves, scored exactly)
FIRST_SETUPS = 12  # ring-building placements tried first (best first)
FOLLOW_CLOSES = 8  # and after a first placement, per position
FOLLOW_SETUPS = 4
ENDS_PER_FIRST = 3  # ends of turn kept per first placement
GENERATE_SHARE = 0.5  # of the decision's time, what finding the ends of turn may take (the rest weighs them)
QUIET_TRIES = 48  # random placements per tile among which the quiet ones are picked
QUIET = 6  # quiet placements followed per position
FINALS = (
    120  # ends of turn at most weighed against the rival's reply (best by the static score first, while time lasts)
)
HANDS = 12  # rival hands sampled (the same for every end of turn: common random numbers)
FIRST_HANDS = 4  # of them, those every end of turn meets; the SECOND_ROUND best meet all
SECOND_ROUND = 12
REPLY_CLOSES = 6  # the rival's ring-closing placements scored exactly
REPLY_SETUPS = 6  # her ring-building placements
REPLY_OPTIONS = 8  # her options combined into a turn
OWN_SHARE = 0.3  # share of the best ring one of our tiles could close after the rival's reply
SETUP_SHARE = 0.6  # a ring another tile of the hand can close, counted while planning (it may not be closed)
NEAR = 3  # a line whose open ends face cells at most this far apart may be led round by one tile


def spots_covering(cells: dict, cell: tuple) -> list[tuple[tuple, int]]:
    """Every (anchor, orientation) on two empty cells, one of them `cell`."""
    out = []
    for d, (dq, dr) in enumerate(DIRECTIONS):
        other = (cell[0] + dq, cell[1] + dr)
        if other not in cells:
            out.append((cell, d))
            out.append((other, (d + 3) % 6))
    return out


def spots_closing(cells: dict, first: tuple, last: tuple) -> list[tuple[tuple, int]]:
    """The placements that could join a line's two open ends facing `first` and `last` (the same or adjacent cells)."""
    if first == last:
        return spots_covering(cells, first)
    d = DIRECTIONS.index((last[0] - first[0], last[1] - first[1]))
    return [(first, d), (last, (d + 3) % 6)]


def folded(tile: int, orientation: int) -> bool:
    """True when the placement is listed under the other cell (a design a half-turn keeps, orientations 3..5)."""
    return orientation >= 3 and symmetric()[design_of(tile)]


class Node:
    """A position of the turn being planned: the sampled state with the plan's placements made."""

    __slots__ = ("state", "points", "first", "potential")

    def __init__(self, state, points: int, first: Action | None, potential: float):
        self.state = state
        self.points = points  # what the turn has scored so far (ruling L4)
        self.first = first  # the plan's first placement (what this decision plays)
        self.potential = potential  # the best ring another tile of the hand could close now

    def rank(self) -> float:
        return self.points + SETUP_SHARE * self.potential


class TurnPlanner:
    """One decision's plan: see the module's docstring."""

    def __init__(self, hints, state, seat: int, rng: random.Random, deadline, width: int = WIDTH):
        self.hints, self.state, self.seat, self.rng, self.deadline = hints, state, seat, rng, deadline
        self.width = width
        self.evaluated = 0  # ends of turn weighed against the rival (tests and benchmarks read it)

    # --- moves -------------------------------------------------------------------------------------
    def closing(self, state, hand: list[int], limit: int) -> list[tuple[int, int, tuple, int]]:
        """(points, tile, anchor, orientation) of the placements of the hand that close a ring, best first: the
        `limit` that close the most curves, scored exactly (inner rings included, ruling L4)."""
        trial = Trial(state)
        lines = trial.lines
        quick = []
        for anchor, orientation, link in lines.hot_links(state.board):
            for tile in hand:
                if not folded(tile, orientation):
                    value = lines.closed_value(tile, anchor, orientation, link)
                    if value:
                        quick.append((value, tile, anchor, orientation))
        quick.sort(key=lambda m: -m[0])
        out = []
        for _, tile, anchor, orientation in quick[:limit]:
            gain, _ = trial.gain(tile, anchor, orientation)
            if gain > 0:
                out.append((gain, tile, anchor, orientation))
        out.sort(key=lambda m: -m[0])
        return out

    def best_close(self, index, cells, tiles) -> int:
        """Curves of the best ring one of `tiles` closes on the table of `index` (inner rings not counted)."""
        by_cell, by_pair = index.near()
        best = 0
        for near in (by_cell, by_pair):
            for where, lines in near.items():
                value = max(count for _, _, count in lines) + 1
                if value <= best:
                    continue
                spots = spots_covering(cells, where) if near is by_cell else spots_closing(cells, *where)
                for anchor, orientation in spots:
                    if second_cell(anchor, orientation) in cells or anchor in cells:
                        continue
                    link = index.links(anchor, orientation)
                    for tile in tiles:
                        if not folded(tile, orientation):
                            best = max(best, index.closed_value(tile, anchor, orientation, link))
        return best

    def setups(self, state, hand: list[int], partners_of: bool = False) -> list[tuple]:
        """(curves another tile of the hand could then close, tile, anchor, orientation): placements that lead an
        open line round to within one tile of its other end, best first; `partners_of`: each also with the tile
        that closes it and where (the rival's options)."""
        if len(hand) < 2:
            return []
        board = state.board
        cells = board.cells
        index = line_index(board)
        table = partners()
        found: dict[tuple, tuple] = {}
        for a, (b, count) in index.other.items():
            # Each line is met from both of its ends: here it is led round from end `a` towards end `b`.
            far = b[0]
            if distance(a[0], far) > NEAR:
                continue
            for anchor, orientation in spots_covering(cells, a[0]):
                second = second_cell(anchor, orientation)
                if far == anchor or far == second:
                    continue  # the tile covers both ends: a closing placement, or none
                entry = end_index(anchor, orientation)[a]
                positions = end_positions(anchor, orientation)
                for tile in hand:
                    if folded(tile, orientation) or (tile, anchor, orientation) in found:
                        continue
                    # Cheap test first: where the line leaves the tile must face the far end's cell or its neighbour.
                    cell, side = positions[table[design_of(tile)][entry]]
                    leaves = neighbour(cell, side)
                    start, length = (leaves, (side + 3) % 6), count + 1
                    if leaves in cells:
                        # It leaves into a placed tile: the line joins the one ending at that edge, whose other
                        # open end is the new one (unless the tile covers it: left to the beam).
                        joined = index.other.get((cell, side))
                        if joined is None or joined[0][0] in (anchor, second):
                            continue
                        start, length = joined[0], length + joined[1]
                    if start[0] != far and distance(start[0], far) != 1:
                        continue
                    others = [t for t in hand if t != tile]
                    closer = self.follow_up(cells, (anchor, second), start, b, length, others)
                    if closer:
                        value, partner, spot = closer
                        found[tile, anchor, orientation] = (value, tile, anchor, orientation) + (
                            (partner, spot) if partners_of else ()
                        )
            if self.deadline.passed():
                break
        return sorted(found.values(), key=lambda m: -m[0])

    @staticmethod
    def follow_up(cells, covered, first: tuple, last: tuple, count: int, others: list[int]) -> tuple | None:
        """(curves, tile, its (anchor, orientation)) of the ring one of `others` closes on the open line from end key
        `first` to end key `last` of `count` curves (None: none can), the table being `cells` and the `covered`
        cells of the tile just planned.

        Read without building the open lines again: a tile closes a lone line when its own curve joins the two
        ends facing it (as LineIndex.closed_value's usual case)."""
        if first[0] != last[0] and distance(first[0], last[0]) != 1:
            return None
        table = partners()
        for a, o in spots_closing(cells, first[0], last[0]):
            b = second_cell(a, o)
            if a in covered or b in covered or b in cells:
                continue
            where = end_index(a, o)
            i, j = where.get(first), where.get(last)
            if i is None or j is None:
                continue
            for tile in others:
                if not folded(tile, o) and table[design_of(tile)][i] == j:
                    return count + 1, tile, (a, o)
        return None

    def quiet(self, state, hand: list[int]) -> list[tuple[int, int, tuple, int]]:
        """(open curves one tile could then close, tile, anchor, orientation): random placements leaving the least."""
        board = state.board
        index = line_index(board)
        out = []
        seen = set()
        for _ in range(QUIET_TRIES):
            anchor, orientation = random_spot(board, self.rng)
            tile = self.rng.choice(hand)
            if folded(tile, orientation):
                anchor, orientation = second_cell(anchor, orientation), orientation - 3
            if (tile, anchor, orientation) in seen:
                continue
            seen.add((tile, anchor, orientation))
            threat = self.hints.open_value(board, index.with_tile(tile, anchor, orientation))
            out.append((threat, tile, anchor, orientation))
        out.sort(key=lambda m: m[0])
        return out[:QUIET]

    def child(self, node: Node, tile: int, anchor: tuple, orientation: int, gained: int | None) -> Node:
        state = self.hints.playout_copy(node.state)  # the root (the sample) included: it is never changed
        action = place_action(tile, anchor, orientation)
        state.apply_legal(self.seat, action)
        placed = state.placed_now()
        points = gained if gained is not None else turn_points(state.board, placed)
        hand = state.hand()
        potential = 0
        if hand:
            potential = self.best_close(line_index(state.board), state.board.cells, hand)
        return Node(state, points, node.first or action, potential)

    def expand(self, node: Node, closes: int, setups: int) -> list[Node]:
        """The positions one placement of the hand leads to: the `closes` best ring-closing placements, the `setups`
        best ring-building ones and the quiet ones."""
        state = node.state
        hand = state.hand()
        children = []
        seen = set()
        moves = [(node.points + g, t, a, o) for g, t, a, o in self.closing(state, hand, closes)]
        moves += [(None, t, a, o) for _, t, a, o in self.setups(state, hand)[:setups]]
        moves += [(None, t, a, o) for _, t, a, o in self.quiet(state, hand)]
        for gained, tile, anchor, orientation in moves:
            if (tile, anchor, orientation) in seen:
                continue
            seen.add((tile, anchor, orientation))
            children.append(self.child(node, tile, anchor, orientation, gained))
            if self.deadline.passed() and children:
                break
        return children

    def finish(self, node: Node, until) -> list[Node]:
        """The ends of turn a narrow beam reaches from `node` (its first placement made), best by points first."""
        beam = [node]
        while beam[0].state.hand():
            nxt: list[Node] = []
            for here in beam:
                nxt += self.expand(here, FOLLOW_CLOSES, FOLLOW_SETUPS)
                if until():
                    break
            if not nxt:
                return []
            nxt.sort(key=lambda n: -n.rank())
            beam = self.unique(nxt)[: self.width]
            if until():
                break
        return [n for n in beam if not n.state.hand()][:ENDS_PER_FIRST]

    # --- the rival ----------------------------------------------------------------------------------
    def reply(self, state, hand: list[int]) -> int:
        """Points the rival's `hand` makes on `state` (the turn just ended): the best set of her options that use
        different tiles and cells, an option being a placement closing a ring (one tile) or one leading a line round
        for another of her tiles to close (two tiles).  Read on the table as it is, nothing placed: rings her
        tiles would build over three placements, or open by closing others, are not seen."""
        options = [(g, (t,), self.cells_of(a, o)) for g, t, a, o in self.closing(state, hand, REPLY_CLOSES)]
        for value, tile, anchor, orientation, partner, spot in self.setups(state, hand, partners_of=True)[
            :REPLY_SETUPS
        ]:
            options.append((value, (tile, partner), self.cells_of(anchor, orientation) | self.cells_of(*spot)))
        options.sort(key=lambda m: -m[0])
        return self.best_set(options[:REPLY_OPTIONS], len(hand), frozenset(), frozenset())

    @staticmethod
    def cells_of(anchor: tuple, orientation: int) -> frozenset:
        return frozenset((anchor, second_cell(anchor, orientation)))

    def best_set(self, options, room: int, used: frozenset, covered: frozenset) -> int:
        """The most points of options using at most `room` tiles, no tile or cell twice (options best first)."""
        best = 0
        for i, (value, tiles, cells) in enumerate(options):
            if len(tiles) > room or used.intersection(tiles) or covered & cells:
                continue
            rest = value + self.best_set(options[i + 1 :], room - len(tiles), used.union(tiles), covered | cells)
            best = max(best, rest)
        return best

    def rival_state(self, state):
        """The table as the rival finds it: our placements down, a turn of hers with nothing placed yet."""
        after = self.hints.playout_copy(state)
        after.steps = []
        after.revealed = []
        return after

    def weigh(self, node: Node, hands: list[list[int]]) -> float:
        """The end of turn's worth: its points, less the rival's mean best reply, plus what we could close after."""
        if not hands:
            return node.points
        start = self.rival_state(node.state)
        taken = 0.0
        for hand in hands:
            taken += self.reply(start, hand)
        index = line_index(start.board)
        mine = self.hints.open_value(start.board, index)
        return node.points - taken / len(hands) + OWN_SHARE * mine / 3

    def hands(self, pool: list[int]) -> list[list[int]]:
        """The rival's sampled hands: her next tiles drawn from the face-down ones (a set: order never read)."""
        size = min(3, len(pool))
        if size == 0:
            return []
        if len(pool) <= size:
            return [list(pool)]
        return [self.rng.sample(pool, size) for _ in range(HANDS)]

    # --- the plan -------------------------------------------------------------------------------------
    def run(self) -> Action | None:
        state = self.state
        hand = state.hand()
        if not hand:
            return None
        pool = sorted(state.stack)  # the face-down tiles as a set: their order is hidden (ruling L5, S2)
        root = Node(state, turn_points(state.board, state.placed_now()) if state.placed_now() else 0, None, 0)
        # Every first placement worth a look is followed to the end of the turn on its own (the decision is the
        # first placement: a beam shared by all would keep the few best starts only), for about half the time.
        until = self.share(GENERATE_SHARE)
        firsts = self.expand(root, FIRST_CLOSES, FIRST_SETUPS)
        firsts.sort(key=lambda n: -n.rank())
        finals: list[Node] = []
        for child in firsts:
            finals += self.finish(child, until) if child.state.hand() else [child]
            if until():
                break
        if not finals:
            return firsts[0].first if firsts else None
        finals = self.unique(finals)
        # Static order first (points less the open lines left), then the rival's reply on the same hands for all.
        index_of = {id(n): self.hints.open_value(n.state.board, line_index(n.state.board)) for n in finals}
        finals.sort(key=lambda n: -(n.points - 0.5 * index_of[id(n)]))
        hands = self.hands(pool)
        # Two rounds on the same hands for all (common random numbers): every end of turn against the first few
        # hands, then the best of them against the rest, so that time goes to the close calls.
        first, rest = hands[:FIRST_HANDS], hands[FIRST_HANDS:]
        scored = []
        for node in finals[:FINALS]:
            if self.deadline.passed() and scored:
                break
            scored.append((self.weigh(node, first), node))
            self.evaluated += 1
        scored.sort(key=lambda pair: -pair[0])
        best, best_value = scored[0][1], scored[0][0]
        if rest:
            best_value = None
            for value, node in scored[:SECOND_ROUND]:
                if self.deadline.passed() and best_value is not None:
                    break
                value = (value * len(first) + self.weigh(node, rest) * len(rest)) / len(hands)
                if best_value is None or value > best_value:
                    best, best_value = node, value
        return best.first

    def share(self, part: float):
        """A test that passes once `part` of the time left to the decision is spent (never without a limit)."""
        deadline = self.deadline
        if deadline.at == math.inf:
            return deadline.passed
        at = deadline.clock() + part * max(0.0, deadline.at - deadline.clock())
        return lambda: deadline.clock() >= at

    @staticmethod
    def unique(nodes: list[Node]) -> list[Node]:
        """The nodes with different tables (sequences in another order reach the same one), first kept."""
        seen, out = set(), []
        for n in nodes:
            key = frozenset(n.state.board.tiles.items())
            if key not in seen:
                seen.add(key)
                out.append(n)
        return out


def plan(hints, state, seat: int, rng: random.Random, deadline, width: int = WIDTH) -> Action | None:
    """The planned placement for `seat` on the sampled `state`, or None where the planner does not apply (another
    player count, the advanced variant, nothing to place: the generic search decides)."""
    if state.players != 2 or state.advanced or not state.decided() or not state.hand():
        return None
    return TurnPlanner(hints, state, seat, rng, deadline, width).run()

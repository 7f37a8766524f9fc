"""Topology drawn as inline SVG from the seat's view (geometry: engine/topology/geometry.py).

Cells are pointy-top hexes placed with engine.hexgrid.to_pixel; side d of a cell is the edge it
shares with neighbour(cell, d), so its midpoint is halfway between the two cell centres.  A curve
joins two edge midpoints with a cubic Bezier whose handles point into the cells, so it leaves each
edge at a right angle like the printed lines.  Placing a revealed tile is previewed in the browser
by moving a pre-drawn copy of the tile (one per orientation, anchored at the origin) onto the chosen
cell: the drawing of a placement only depends on the anchor through a translation.
"""

from __future__ import annotations

import json
import math

from engine.hexgrid import neighbour
from engine.topology.geometry import end_position, placed_curves
from engine.topology.tiles import designs

from .. import hex_svg
from ..hex_svg import fmt

SIZE = 30.0  # hex circumradius in SVG units
APOTHEM = SIZE * math.sqrt(3) / 2
# Bezier handles: at most HANDLE_SHARE of the distance between the two ends, and HANDLE_BASE plus
# HANDLE_STEP per curve nested inside (see curve_path; tests/web/test_web_topology_drawing.py checks them).
HANDLE_SHARE = 0.45
HANDLE_BASE = SIZE / 3
HANDLE_STEP = SIZE / 3
MIN_SCALE = 0.6  # px per SVG unit at least: a hex stays about 36 px wide on a phone
RING_HUES = 8  # closed rings take the colours .hue-0 ... .hue-7 of site.css in turn (no inline style: CSP)


def centre(cell) -> tuple[float, float]:
    return hex_svg.centre(cell, SIZE)


def side_mid(cell, side: int) -> tuple[float, float]:
    ax, ay = centre(cell)
    bx, by = centre(neighbour((cell[0], cell[1]), side))
    return (ax + bx) / 2, (ay + by) / 2


def hex_points(cell) -> str:
    """The six corners of a pointy-top hex, as an SVG points list."""
    return hex_svg.hex_points(cell, SIZE)


def side_segment(cell, side: int) -> tuple[float, float, float, float]:
    """The two corners of side `side` (direction d points at screen angle -60d degrees)."""
    cx, cy = centre(cell)
    mid = -60 * side
    a, b = math.radians(mid - 30), math.radians(mid + 30)
    return (cx + SIZE * math.cos(a), cy + SIZE * math.sin(a), cx + SIZE * math.cos(b), cy + SIZE * math.sin(b))


def _nested(i: int, j: int) -> int:
    """How many curves a non-crossing pairing must fit between the curve (i, j) and the tile's edge."""
    between = (j - i - 1) % 10
    return min(between, 8 - between) // 2


def curve_path(anchor, orientation: int, i: int, j: int) -> str:
    """SVG path of the curve joining ends i and j of a tile placed at (anchor, orientation).

    A cubic Bezier leaving each edge at a right angle (so it runs on smoothly into the neighbour's
    curve).  Its handles grow with the number of curves nested inside it and are capped by the
    distance between the ends, so the curves of a non-crossing pairing never cross: the constants
    were chosen by checking every one of the 42 pairings and keeping the widest gap between curves.
    """
    (c1, s1), (c2, s2) = end_position(anchor, orientation, i), end_position(anchor, orientation, j)
    p1, p2 = side_mid(c1, s1), side_mid(c2, s2)
    length = min(HANDLE_SHARE * math.dist(p1, p2), HANDLE_BASE + HANDLE_STEP * _nested(i, j))
    handles = []
    for cell, p in ((c1, p1), (c2, p2)):
        cx, cy = centre(cell)
        handles.append((p[0] + (cx - p[0]) / APOTHEM * length, p[1] + (cy - p[1]) / APOTHEM * length))
    (h1x, h1y), (h2x, h2y) = handles
    return f"M{fmt(p1[0])} {fmt(p1[1])} C{fmt(h1x)} {fmt(h1y)} {fmt(h2x)} {fmt(h2y)} {fmt(p2[0])} {fmt(p2[1])}"


def outline_path(cells) -> str:
    """The outer edges of a double hex (the inner edge between its two cells left out)."""
    a, b = (tuple(c) for c in cells)
    parts = []
    for cell, other in ((a, b), (b, a)):
        for side in range(6):
            if neighbour(cell, side) == other:
                continue
            x1, y1, x2, y2 = side_segment(cell, side)
            parts.append(f"M{fmt(x1)} {fmt(y1)} L{fmt(x2)} {fmt(y2)}")
    return " ".join(parts)


def tile_drawing(pairs, anchor, orientation: int, ring_of: dict | None = None, tile: int | None = None) -> dict:
    """Hexes, outline and curves of one placed tile; curves in a closed ring carry its colour (hue)."""
    cells = [list(anchor), list(neighbour((anchor[0], anchor[1]), orientation))]
    curves = []
    for i, j in pairs:
        ring = ring_of.get((tile, frozenset((i, j)))) if ring_of is not None else None
        curves.append(
            {
                "d": curve_path(anchor, orientation, i, j),
                "ring": ring,
                "hue": ring % RING_HUES if ring is not None else None,
            }
        )
    return {"hexes": [hex_points(c) for c in cells], "outline": outline_path(cells), "curves": curves}


def _ring_index(rings: list[dict]) -> dict:
    """(tile, {end, end}) -> index of the closed ring that curve belongs to."""
    found = {}
    for index, ring in enumerate(rings):
        for tile, e1, e2 in ring["curves"]:
            found[(tile, frozenset((e1, e2)))] = index
    return found


def _min_width(view_box: str) -> int:
    """Pixels below which the board scrolls rather than shrinks, so a cell stays big enough to tap."""
    return round(float(view_box.split()[2]) * MIN_SCALE)


def _bounds(covered, spots) -> str:
    """An SVG viewBox around the tiles, with room for the cells a tile may still go to."""
    cells = list(covered) + list(spots)
    xs, ys = zip(*(centre(c) for c in cells)) if cells else ((0.0,), (0.0,))
    if spots:  # the legal cells already reach as far out as a tile can go
        pad_x, pad_y = APOTHEM + SIZE * 0.3, SIZE * 1.3
    else:  # keep the same frame while others play: two cells round the tiles
        pad_x, pad_y = 2 * 2 * APOTHEM + APOTHEM + SIZE * 0.3, 2 * 1.5 * SIZE + SIZE * 1.3
    x0, y0 = min(xs) - pad_x, min(ys) - pad_y
    return f"{fmt(x0)} {fmt(y0)} {fmt(max(xs) + pad_x - x0)} {fmt(max(ys) + pad_y - y0)}"


def _hand_tile(entry: dict, selectable: bool) -> dict:
    """A revealed tile: its picture, and its six orientations anchored at (0, 0) for the preview."""
    pairs = [tuple(p) for p in entry["pairs"]]
    orientations = [tile_drawing(pairs, (0, 0), o) for o in range(6)]
    picture = placed_curves(pairs, (0, 0), 0)
    return {
        "tile": entry["tile"],
        "symmetric": entry["symmetric"],
        "orientations": orientations,
        "picture": tile_drawing(pairs, (0, 0), 0),
        "picture_box": _picture_box(picture["cells"]),
        "selectable": selectable,
    }


def _picture_box(cells) -> str:
    xs, ys = zip(*(centre(c) for c in cells))
    x0, y0 = min(xs) - APOTHEM - 2, min(ys) - SIZE - 2
    return f"{fmt(x0)} {fmt(y0)} {fmt(max(xs) + APOTHEM + 2 - x0)} {fmt(max(ys) + SIZE + 2 - y0)}"


def _placed_tiles(view: dict, turnable: set) -> tuple[list[dict], list]:
    """The tiles on the table in the order they were placed, drawn, and every cell they cover."""
    all_designs = designs()
    ring_of = _ring_index(view["rings"])
    placed_now = set(view["placed_this_turn"])
    tiles, covered = [], []
    for index, entry in enumerate(view["board"]):
        covered += entry["cells"]
        tiles.append(
            {
                "tile": entry["tile"],
                "new": entry["tile"] in placed_now,
                # The last move: the keyboard's first lit cell is the one nearest it (decision 26, point 5).
                "last": index == len(view["board"]) - 1,
                "turnable": entry["tile"] in turnable,
                **tile_drawing(
                    all_designs[entry["design"]], entry["anchor"], entry["orientation"], ring_of, entry["tile"]
                ),
            }
        )
    return tiles, covered


def _spots(spot_cells: list, covered: list) -> list[dict]:
    """The cells some legal placement covers, each marked near when it touches a placed tile."""
    covered_set = {tuple(c) for c in covered}
    return [
        {
            "q": q,
            "r": r,
            "points": hex_points((q, r)),
            "near": any(neighbour((q, r), d) in covered_set for d in range(6)),
            "x": fmt(centre((q, r))[0]),
            "y": fmt(centre((q, r))[1]),
        }
        for q, r in spot_cells
    ]


def _players(view: dict, detail: dict, names: list[str]) -> list[dict]:
    """Each seat's name, score and rank, the one to play and the viewer marked."""
    current = view["current"]
    results = {r["seat"]: r for r in view["results"] or []}
    return [
        {
            "seat": i,
            "name": names[i] if i < len(names) else str(i + 1),
            "score": s,
            "current": i == current,
            "me": i == detail["my_seat"],
            "rank": results[i]["rank"] if i in results else None,
        }
        for i, s in enumerate(view["scores"])
    ]


def _history(view: dict, names: list[str]) -> list[dict]:
    """The turns so far, latest first, each with its player's name."""
    return [
        {**h, "name": names[h["seat"]] if h["seat"] < len(names) else str(h["seat"] + 1)}
        for h in reversed(view["history"])
    ]


def _buttons(others: dict) -> dict:
    """The one-click actions as the JSON their buttons post (None when not legal now)."""
    return {
        kind: json.dumps(others[kind]) if kind in others else None for kind in ("end_turn", "undo", "reveal", "decline")
    }


def present(detail: dict, names: list[str]) -> dict:
    """Everything the Topology board template and script need, from the seat's view only."""
    view = detail["view"]
    legal = detail["legal_actions"]
    turnable = {a["tile"] for a in legal if a["type"] == "turn_over"}
    tiles, covered = _placed_tiles(view, turnable)

    places = [a for a in legal if a["type"] == "place"]
    spot_cells = sorted({tuple(c) for a in places for c in a["cells"]})
    view_box = _bounds(covered, spot_cells)
    placeable = {a["tile"] for a in places}
    others = {a["type"]: a for a in legal if a["type"] in ("end_turn", "undo", "reveal", "decline")}
    current = view["current"]
    rings = [{"value": r["value"], "hue": i % RING_HUES} for i, r in enumerate(view["rings"])]
    return {
        "view": view,
        "tiles": tiles,
        "spots": _spots(spot_cells, covered),
        "view_box": view_box,
        "min_width": _min_width(view_box),
        "hand": [_hand_tile(h, h["tile"] in placeable) for h in view["hand"]],
        "placed_count": len(set(view["placed_this_turn"])),
        "revealed_count": len(view["revealed"]),
        "places": places,
        "actions": others,
        **_buttons(others),
        "can_turn_over": bool(turnable),
        "players": _players(view, detail, names),
        "current_name": names[current] if current is not None and current < len(names) else None,
        "my_turn": current is not None and current == detail["my_seat"],
        "rings": rings,
        "ring_total": sum(r["value"] for r in rings),
        "history": _history(view, names),
        "stack_size": view["stack_size"],
        "over": view["over"],
        "advanced": view["advanced"],
        "choice_pending": not view["decided"],
    }

"""Pointy-top hexes as inline SVG, shared by the boards drawn on a hex grid (Topoum, Topology).

Cells are axial [q, r] placed with engine.hexgrid.to_pixel; `size` is the circumradius in SVG units
(each board has its own).  Numbers are written with one decimal at most, so pages stay small.
"""

from __future__ import annotations

import math

from engine.hexgrid import to_pixel


def fmt(value: float) -> str:
    """A coordinate as SVG text: one decimal, no trailing ".0", never "-0"."""
    text = f"{value:.1f}"
    return "0" if text in ("-0.0", "0.0") else text.removesuffix(".0")


def centre(cell, size: float) -> tuple[float, float]:
    return to_pixel((cell[0], cell[1]), size)


def hex_points(cell, size: float, scale: float = 1.0) -> str:
    """The six corners of the hex on `cell` (shrunk by `scale`), as an SVG points list."""
    cx, cy = centre(cell, size)
    radius = size * scale
    corners = (math.radians(60 * k - 30) for k in range(6))
    return " ".join(f"{fmt(cx + radius * math.cos(a))},{fmt(cy + radius * math.sin(a))}" for a in corners)

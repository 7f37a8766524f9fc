"""Toppo at the table: for now the generic board (view shown readably, a button per legal action).

A later helper draws the cards; keep Toppo-only presentation here.
"""
from __future__ import annotations

from . import generic


def present(detail: dict, names: list[str]) -> dict:
    return generic.present(detail, names)

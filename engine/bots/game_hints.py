"""Load the per-game hints of whichever games are installed (a game still being written is skipped)."""
from __future__ import annotations

import importlib

for _module in ("topology_hints", "toppo_hints", "topoum_hints"):
    try:
        importlib.import_module(f"{__package__}.{_module}")
    except ModuleNotFoundError as exc:
        # Only a missing game package (or hints module) is skipped; any other error is a bug.
        if not (exc.name or "").startswith(("engine.topology", "engine.toppo", "engine.topoum", __package__)):
            raise

"""What may happen in Topoum: the legal choices of the seat to act and carrying one out.

The setup steps (setup.py) come first, then turns (turn.py): when the last setup decision is laid,
the start player's first turn begins here, so that neither module needs the other.
"""
from __future__ import annotations

from .setup import apply_setup, setup_actions
from .turn import apply_action as apply_turn_action
from .turn import begin_turn, turn_actions


def legal_actions(state) -> list[dict]:
    """Every choice of the seat to act now; each leads on to a complete turn (Law of War #7)."""
    return setup_actions(state) if state.phase == "setup" else turn_actions(state)


def apply_action(state, action: dict) -> None:
    """Carry out a legal action (already checked) for the seat to act."""
    if state.phase != "setup":
        apply_turn_action(state, action)
        return
    state.events = []
    apply_setup(state, action)
    if state.phase == "play":
        begin_turn(state)

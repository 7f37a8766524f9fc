"""What may happen in Topoum: the legal choices of the seat to act and carrying one out.

The setup steps (setup.py) come first, then turns (turn.py): when the last setup decision is laid,
the start player's first turn begins here, so that neither module needs the other.
"""

from __future__ import annotations

from .setup import apply_setup, setup_actions
from .turn import apply_action as apply_turn_action
from .turn import begin_turn, turn_action_types, turn_actions, turn_actions_of_type


def legal_actions(state) -> list[dict]:
    """Every choice of the seat to act now; each leads on to a complete turn (Law of War #7)."""
    return setup_actions(state) if state.phase == "setup" else turn_actions(state)


def legal_actions_of_type(state, kind) -> list[dict]:
    """The legal actions whose "type" is `kind`: enough to check an action sent, often cheaper than all."""
    if state.phase == "setup":
        return [action for action in setup_actions(state) if action["type"] == kind]
    return turn_actions_of_type(state, kind)


def legal_action_types(state) -> set[str]:
    """The types among `legal_actions(state)`, where that is cheaper than listing them."""
    if state.phase == "setup":
        return {action["type"] for action in setup_actions(state)}
    return turn_action_types(state)


def apply_action(state, action: dict) -> None:
    """Carry out a legal action (already checked) for the seat to act."""
    if state.phase != "setup":
        apply_turn_action(state, action)
        return
    state.events = []
    apply_setup(state, action)
    if state.phase == "play":
        begin_turn(state)

"""engine.ranking.first_turns_pending (ruling S1, turn 3) from the seed and a log alone, as anyone can re-run it:
a turn counts once the decision that closed it was the seat's own; the site's leave entries are skipped."""

from __future__ import annotations

from engine.core import get_game
from engine.ranking import first_turns_pending

SEED = "0123456789abcdef0123456789abcdef"


def whole_turn(kind: str, state, seat: int) -> list[tuple[int, dict, bool]]:
    """The seat plays her turn with the first legal decisions until it passes on (applied to `state`)."""
    log = []
    while seat in state.to_act():
        action = next(a for a in state.legal_actions(seat) if a["type"] != "undo")
        state.apply(seat, action)
        log.append((seat, action, True))
        if action["type"] == "end_turn":
            break
    return log


def test_a_topology_turn_counts_only_when_its_closing_decision_was_her_own():
    engine = get_game("topology")
    options = engine.validate_options(2, {})
    state = engine.new_state(2, options, SEED)
    (first,) = state.to_act()
    log = whole_turn("topology", state, first)
    assert len(log) > 1 and log[-1][1]["type"] == "end_turn"
    assert first_turns_pending("topology", 2, options, SEED, []) == {0, 1}
    assert first_turns_pending("topology", 2, options, SEED, log[:-1]) == {0, 1}  # not confirmed yet
    assert first_turns_pending("topology", 2, options, SEED, log) == {1 - first}
    # the same turn confirmed by the site's bot for a missed deadline: not hers
    by_bot = [*log[:-1], (first, log[-1][1], False)]
    assert first_turns_pending("topology", 2, options, SEED, by_bot) == {0, 1}
    # a leave entry is the site's, not the engine's: skipped
    resign = (1 - first, {"type": "resign"}, True)
    assert first_turns_pending("topology", 2, options, SEED, [resign, *log]) == {1 - first}


def test_a_correspondence_toppo_claim_is_a_turn_and_the_replay_stops_once_everyone_played():
    engine = get_game("toppo")
    options = engine.validate_options(2, {"hands": 1})
    state = engine.new_state(2, options, SEED)
    log = []
    for seat in list(state.to_act()):
        action = next(a for a in state.legal_actions(seat) if a["type"] == "renew")
        state.apply(seat, action)
        log.append((seat, action, True))
    assert first_turns_pending("toppo", 2, options, SEED, log[:1]) == {log[1][0]}
    # nothing after everyone has played is even read: a row that would not apply does no harm
    assert first_turns_pending("toppo", 2, options, SEED, [*log, (0, {"type": "nonsense"}, True)]) == set()

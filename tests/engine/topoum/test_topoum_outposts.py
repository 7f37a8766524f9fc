"""Ruling T21 (turn 3): a mole standing on an outpost is not on the battlefield, for every rule that names it.

T12 moves only the moles she had on the battlefield when her turn began, and no card or farmer that names her
moles "on the battlefield" reaches one on an outpost (Medal of Honor; Tunnel's barracks "anywhere in the
battlefield"). The mole leaves its outpost only when something else moves it (a push) or when the battlefield
grows to include its space. The T9 side of the clarification is in test_topoum_clarifications.py, and the farmers
that drop a tile "in the battlefield" (The Crusher, The Sprayer, Trap Master) are tested there too.

Most positions use the disc of radius 1 around (0, 0) as the battlefield, Red's mole on her barracks at (-1, 0)
(START) and an outpost two spaces beyond its edge, so an empty space lies between them as in play (T3).
"""

from __future__ import annotations

import json

import pytest
from topoum_asserts import (
    BLUE,
    EAST,
    RED,
    START,
    A,
    go,
    medals,
    moles_of,
    offered,
    red_holding,
    red_to_act,
)
from topoum_positions import acts, do, hexes, play

from engine.core import IllegalAction, get_game, make_rng

OUTPOST = (3, 0)  # a farmer zone (T2)
X_SPACE = (4, 0)  # the X space next to it (T2)


def field_with_red_on_the_outpost(*outposts):
    """The field of radius 1 with Red's mole at START, and Red's mole on a bare outpost at OUTPOST."""
    pos = red_to_act(radius=1).neutral(OUTPOST, *outposts, colour=2).outpost(OUTPOST, *outposts)
    return pos.mole(RED, OUTPOST)


def cell_of(st, h):
    """The view's entry for the space `h`, as the seat to act sees it (her turn in progress included, ruling S3)."""
    return next(c for c in st.view(st.cur)["board"] if tuple(c["hex"]) == h)


def sources(st) -> set[tuple[int, int]]:
    """Every space some legal action of the seat to act moves a mole from."""
    return {tuple(a["from"]) for a in acts(st) if a.get("from") is not None}


# --- T12: only moles on the battlefield at the start of her turn move --------------------------------
def test_a_mole_on_an_outpost_at_the_start_of_her_turn_is_not_moved():  # rulings T12, T21
    st = red_holding(field_with_red_on_the_outpost(), ["advance"])
    assert {tuple(a["from"]) for a in acts(st, type="move")} == {START}
    assert sources(st) == {START}  # no step off the outpost: no -5 for throwing it away (Law #5)
    outpost, home = cell_of(st, OUTPOST), cell_of(st, START)
    assert outpost["mole"] == 0 and outpost["outpost"] and "movable" not in outpost
    assert home["movable"]
    # after her one move the turn goes on with no other mole to move
    do(st, type="move", **{"from": list(START), "to": list(A)})
    do(st, type="change_tile")
    assert {a["type"] for a in acts(st)} == {"end_turn", "undo"}


def test_a_move_from_an_outpost_is_refused_with_its_reason_and_changes_nothing():  # rulings T12, T21, G0.4
    st = red_holding(field_with_red_on_the_outpost(), ["advance"])
    before = json.dumps(st.to_json(), sort_keys=True)
    with pytest.raises(IllegalAction) as err:
        st.apply(0, {"type": "move", "from": list(OUTPOST), "to": [2, 0]})
    assert err.value.reason == ("topoum.move_from_outpost", {"hex": list(OUTPOST)})
    assert json.dumps(st.to_json(), sort_keys=True) == before
    with pytest.raises(IllegalAction) as err:  # any other refused move keeps its general reason
        st.apply(0, {"type": "move", "from": [1, 0], "to": [2, 0]})
    assert err.value.code == "topoum.move_refused"


def test_a_rivals_mole_on_an_outpost_does_not_move_in_her_turn_either():  # rulings T12, T21
    pos = red_to_act(radius=1).neutral(OUTPOST, colour=2).outpost(OUTPOST).mole(BLUE, OUTPOST)
    pos.barracks(BLUE, (1, 0)).mole(BLUE, (1, 0))
    st = pos.build(cur=BLUE)
    assert {tuple(a["from"]) for a in acts(st, type="move")} == {(1, 0)}


# --- cards that name her moles on the battlefield ----------------------------------------------------
def test_medal_of_honor_never_sends_home_a_mole_on_an_outpost():  # rulings T14, T21
    pos = field_with_red_on_the_outpost().mole(RED, (1, 0))
    st = go(pos, ["medal_of_honor"])
    do(st, type="play", card="medal_of_honor", source="hand")
    assert hexes(st, type="target") == {(1, 0)}  # not the one on the outpost: no +3 for cashing it
    do(st, type="target", hex=[1, 0])
    assert moles_of(st, RED) == {A, OUTPOST} and medals(st, RED) == 13


def test_medal_of_honor_is_not_offered_when_her_other_moles_stand_only_on_outposts():  # rulings T14, T21, Law #7
    st = go(field_with_red_on_the_outpost(), ["medal_of_honor"])
    assert "medal_of_honor" not in offered(st)
    assert acts(st, type="change_tile")  # the move stays legal through the tile change (T12)


def test_tunnel_never_ends_on_a_barracks_of_hers_on_an_outpost():  # rulings T14, T21
    # The printed card: "to another one of yours, anywhere in the battlefield".
    pos = red_to_act(radius=1).barracks(RED, A, (1, 0)).barracks(RED, OUTPOST).outpost(OUTPOST)
    st = go(pos, ["tunnel"])
    do(st, type="play", card="tunnel", source="hand")
    assert hexes(st, type="target") == {START, (1, 0)}


# --- what moves it: a push, or the battlefield growing to include its space -------------------------------
def test_a_push_moves_a_mole_off_its_outpost():  # rulings T14, T21
    # Panic Attack eastwards: the ray runs across the gap at (2, 0) to the outpost and pushes its mole on to
    # the X space, another outpost, where it stands (T14: pushes cross gaps).
    st = go(field_with_red_on_the_outpost(X_SPACE), ["panic_attack"])
    play(st, "panic_attack", dir=EAST)
    assert moles_of(st, RED) == {A, X_SPACE} and medals(st, RED) == 10
    assert cell_of(st, X_SPACE)["outpost"] and "movable" not in cell_of(st, X_SPACE)


def test_when_the_battlefield_grows_to_its_space_the_mole_is_on_it():  # rulings T3, T12, T14, T21
    # Blue's four moles are Red's prisoners: Blue's turn is only "end_turn" (T9 skips her action step).
    pos = field_with_red_on_the_outpost().mole(RED, (1, -1)).prisoners(RED, BLUE, 4).medals(BLUE, 0)
    st = go(pos, ["build_barracks", "medal_of_honor"])
    play(st, "build_barracks", hex=[2, 0])  # next to (1, 0) and to the outpost: it joins the battlefield (T3)
    assert not cell_of(st, OUTPOST)["outpost"]
    # it was not on the battlefield when her turn began, so it does not move this turn (T12)
    assert OUTPOST not in {tuple(a["from"]) for a in acts(st, type="move")}
    do(st, type="end_turn")
    do(st, type="end_turn")  # Blue's
    assert st.cur == 0 and OUTPOST in {tuple(a["from"]) for a in acts(st, type="move")}
    # and Medal of Honor may now send it home
    do(st, type="move", **{"from": [1, -1], "to": [1, 0]})
    do(st, type="play", card="medal_of_honor", source="hand")
    assert hexes(st, type="target") == {A, OUTPOST}


# --- random play: the audit's question, asked at every decision -------------------------------------------
OUTPOST_DECK = ["underground_maneuver", "new_soldier", "medal_of_honor", "grenade", "advance", "build_barracks"]


def test_in_random_games_no_mole_leaves_an_outpost_by_its_own_move_or_a_medal():  # rulings T12, T14, T21
    """Underground Maneuver and New Soldier reach the crates on the farmer zones, outposts; from there no move
    and no Medal of Honor may take a mole. Moles on outposts at a turn's start must occur, or this proves nothing."""
    game = get_game("topoum")
    opts = {"deck": "custom", "types": OUTPOST_DECK + ["farmer"], "farmer": "lord_of_the_crates"}
    seen = 0
    for seed in range(40):
        st = game.new_state(2, game.validate_options(2, opts), seed)
        rng = make_rng(f"outposts-{seed}", 0)
        while st.to_act():
            seat = st.cur
            legal = st.legal_actions(seat)
            if st.phase == "play":
                outposts = {tuple(st.geo.hex(x)) for x in range(st.geo.size) if st.tile[x] >= 0 and not st.bf[x]}
                if st.stage == "start" and not st.turn_log:
                    seen += sum(1 for x in range(st.geo.size) if st.mole[x] == seat and not st.bf[x])
                assert not {tuple(a["from"]) for a in legal if a["type"] == "move"} & outposts
                if st.pending and st.pending.get("card") == "medal_of_honor":
                    assert not {tuple(a["hex"]) for a in legal if a["type"] == "target"} & outposts
            action = rng.choice([a for a in legal if a["type"] != "undo"])
            st.apply(seat, json.loads(json.dumps(action)))
    assert seen > 0

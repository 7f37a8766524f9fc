"""Views (ruling G0.3), log lines, determinisation and JSON round-trips."""

from __future__ import annotations

import json
import random
from collections import Counter

from topoum_positions import Position, activate, play

from engine.core import get_game, make_rng
from engine.topoum.cards import PEACE

GAME = get_game("topoum")
RED, BLUE = 0, 1


def played_game(players=2, seed=3, steps=60, **opts):
    st = GAME.new_state(players, opts, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_over():
            break
        actions = [a for a in st.legal_actions(st.cur) if a["type"] != "undo"]
        st.apply(st.cur, rng.choice(actions))
    return st


def test_a_player_sees_her_hand_and_pile_others_sizes_and_tops():
    pos = Position().neutral((0, 0)).mole(RED, (0, 0)).hand(RED, ["long_range", "advance"])
    pos.hand(BLUE, ["tunnel", "decoy"]).pile(BLUE, ["prisoner_of_war", "bayonet"]).pile(RED, ["red_cross"])
    st = pos.deck(["betrayal", "new_soldier"]).build(cur=RED)
    v = st.view(RED)
    assert v["hand"] == ["long_range", "advance"] and v["pile"] == ["red_cross"]
    assert v["hand_sizes"] == [2, 2] and v["piles"][BLUE] == {"size": 2, "top": "bayonet"}
    text = json.dumps(v)
    for hidden in ("tunnel", "decoy", "prisoner_of_war", "betrayal", "new_soldier", "position"):
        assert hidden not in text
    spectator = json.dumps(st.view(None))
    assert "long_range" not in spectator and '"hand"' not in spectator and "red_cross" in spectator


def test_the_view_carries_the_decision_and_its_legal_choices():
    pos = Position().area(2).mole(RED, (-1, 0)).mole(BLUE, (1, 0)).hand(RED, ["short_range"])
    st = pos.build(cur=RED)
    activate(st)
    v = st.view(RED)
    assert "legal" not in v and "undoable" not in v and st.undoable(RED)  # they travel beside the view (decision 15)
    assert v["turn"]["pending"] == {"k": "card", "m": [0, 0], "alt": True}
    assert v["decision"]["prompt"] == {"code": "topoum.prompt.card", "alt": True}
    assert st.legal_actions(BLUE) == []


def test_new_lines_are_previewed_for_the_page():
    pos = Position().neutral((0, 0), (1, 0), (2, 0), (-1, 0), colour=2).mole(RED, (-1, 0), (2, 0))
    st = pos.hand(RED, ["advance"]).build(cur=RED)
    activate(st)
    assert st.view(RED)["new_lines"] == [{"from": [0, 0], "to": [2, 0], "medals": 3}]
    assert st.view(BLUE)["new_lines"] == []  # ruling S3: her turn shows to the others once she confirms it


def test_the_deck_order_and_the_seed_are_nobodys():
    st = played_game()
    for seat in (None, 0, 1):
        text = json.dumps(st.view(seat))
        assert '"deck"' not in text and '"seed"' not in text
        assert st.view(seat)["deck_size"] == len(st.deck)


def test_log_lines_name_the_card_slot_and_cost():
    st = Position().area(2).mole(RED, (-1, 0)).mole(BLUE, (2, 0)).line([None, "slingshot"]).build(cur=RED)
    activate(st)
    before = st.clone()
    action = {"type": "play", "card": "slingshot", "source": "line", "slot": 2}
    st.apply(RED, action)
    assert st.describe(RED, action, before) == [
        {"code": "topoum.play", "seat": RED, "card": "slingshot", "slot": 2, "medals": -1}
    ]
    before = st.clone()
    action = {"type": "target", "hex": [2, 0]}
    st.apply(RED, action)
    line = st.describe(RED, action, before)
    assert line[0] == {"code": "topoum.aim", "seat": RED, "card": "slingshot", "farmer": None, "hex": [2, 0]}
    assert {"code": "topoum.mole_lost", "seat": BLUE, "hex": [2, 0], "why": "shot", "penalty": 0} in line[1:]


def test_end_of_turn_log_hides_the_drawn_cards():
    pos = Position().area(2).mole(RED, (-1, 0)).hand(RED, ["advance", "grenade"]).deck(["tunnel", "decoy"])
    st = pos.line(["bayonet"] * 5).build(cur=RED)
    activate(st)
    play(st, "advance", hex=[1, 0])
    before = st.clone()
    st.apply(RED, {"type": "end_turn"})
    line = st.describe(RED, {"type": "end_turn"}, before)
    assert {"code": "topoum.draws", "seat": RED, "cards": 1} in line and "tunnel" not in str(line)


def test_every_decision_of_random_games_has_a_log_line():
    for seed in range(4):
        st = GAME.new_state(3, {"deck": "random", "obstacles": seed % 2 == 0}, seed)
        rng = random.Random(seed)
        while not st.is_over():
            actions = st.legal_actions(st.cur)
            action = rng.choice(actions)
            before, seat = st.clone(), st.cur
            st.apply(seat, action)
            line = st.describe(seat, action, before)
            # Data, not words (decision 13): the decision by its seat first, then its consequences.
            assert line[0]["code"].startswith("topoum.") and line[0]["seat"] == seat
            assert all(isinstance(e, dict) and e["code"].startswith("topoum.") for e in line)
            assert json.loads(json.dumps(line)) == line


def test_json_round_trip_mid_turn():
    st = played_game(steps=40)
    data = json.loads(json.dumps(st.to_json()))
    again = GAME.load(data)
    assert again.to_json() == st.to_json()
    assert again.legal_actions(again.cur) == st.legal_actions(st.cur)


def test_determinized_state_keeps_what_the_seat_knows():
    st = played_game(steps=50, deck="random")
    seat = 1 - st.cur
    v = st.view(seat)
    guess = GAME.determinize(v, seat, make_rng("x", 1))
    assert guess.hands[seat] == st.hands[seat] and guess.piles[seat] == st.piles[seat]
    assert len(guess.deck) == len(st.deck) and guess.view(seat) == v
    if not st.peace:
        assert guess.deck.index(PEACE) < 6
    # the other hand is sampled among the cards this seat has not seen
    assert len(guess.hands[st.cur]) == len(st.hands[st.cur])

    def hidden(s):
        return Counter(s.hands[st.cur] + s.deck + s.piles[st.cur])

    assert hidden(guess) == hidden(st)


def test_determinized_state_can_take_back_like_the_real_one():
    pos = Position().area(2).mole(RED, (-1, 0)).mole(BLUE, (1, 0)).hand(RED, ["short_range", "grenade"])
    st = pos.hand(BLUE, ["advance", "advance"]).deck(["tunnel"] * 8).build(cur=RED)
    activate(st)
    play(st, "short_range", hex=[1, 0])
    guess = GAME.determinize(st.view(RED), RED, make_rng("y", 2))
    assert guess.undoable(RED)
    guess.apply(RED, {"type": "undo"})
    guess.apply(RED, {"type": "undo"})
    assert guess.mole[guess.geo.cell((1, 0))] == BLUE and "short_range" in guess.hands[RED]
    guess.apply(RED, {"type": "undo"})
    assert guess.mole[guess.geo.cell((-1, 0))] == RED and not guess.undoable(RED)


def test_plant_secrets_hides_hands_deck_and_crates():
    st = played_game(steps=30, deck="preset", preset="strategists", farmer="lord_of_the_crates")
    planted = GAME.plant_secrets(st)
    assert "SECRET-seed" in planted[None]
    for viewer in (None, 0, 1):
        text = json.dumps(st.view(viewer))
        for owner, markers in planted.items():
            if owner != viewer:
                assert not any(m in text for m in markers)


def test_the_others_see_her_turn_as_it_began_until_she_confirms():  # ruling S3 (amended)
    pos = Position().area(2).mole(RED, (-1, 0)).mole(BLUE, (1, 0)).hand(RED, ["short_range", "grenade"])
    st = pos.hand(BLUE, ["advance", "advance"]).line(["conquest"] * 5).deck(["tunnel"] * 8).build(cur=RED)
    before = {seat: st.view(seat) for seat in (BLUE, None)}
    assert st.unconfirmed_seat() is None
    activate(st)
    play(st, "short_range", hex=[1, 0])
    assert st.unconfirmed_seat() == RED and st.view(RED)["piles"][RED]["top"] == "short_range"
    for seat in (BLUE, None):
        assert st.view(seat) == before[seat]  # not the card, not the lost mole, not the moved one
    while st.undoable(RED):
        st.apply(RED, {"type": "undo"})
    assert st.hands[RED] == ["short_range", "grenade"] and st.unconfirmed_seat() is None
    assert all(st.view(seat) == before[seat] for seat in (BLUE, None))
    activate(st)
    play(st, "short_range", hex=[1, 0])
    st.apply(RED, {"type": "end_turn"})
    for seat in (BLUE, None):
        seen = st.view(seat)
        assert seen["piles"][RED] == {"size": 1, "top": "short_range"} and seen["hand_sizes"][RED] == 2
        assert not any(c.get("mole") == BLUE for c in seen["board"])


def test_another_seats_sampled_state_is_the_start_of_the_turn():
    pos = Position().area(2).mole(RED, (-1, 0)).mole(BLUE, (1, 0)).hand(RED, ["short_range", "grenade"])
    st = pos.hand(BLUE, ["advance", "advance"]).deck(["tunnel"] * 8).build(cur=RED)
    activate(st)
    play(st, "short_range", hex=[1, 0])
    view = st.view(BLUE)
    guess = GAME.determinize(view, BLUE, make_rng("z", 3))
    assert guess.view(BLUE) == view and guess.turn_log == [] and not guess.undoable(RED)
    assert guess.mole[guess.geo.cell((1, 0))] == BLUE and guess.piles[RED] == []


def test_planted_secrets_cover_the_kept_start_of_an_unconfirmed_turn():
    pos = Position().area(2).mole(RED, (-1, 0)).mole(BLUE, (1, 0)).hand(RED, ["short_range", "grenade"])
    st = pos.pile(RED, ["advance"]).hand(BLUE, ["advance", "advance"]).deck(["tunnel"] * 8).build(cur=RED)
    activate(st)
    play(st, "short_range", hex=[1, 0])
    planted = GAME.plant_secrets(st)
    assert "SECRET-pile-0-now-0" in planted[RED] and "SECRET-hand-0-start-0" in planted[RED]
    for viewer in (None, RED, BLUE):
        text = json.dumps(st.view(viewer))
        for owner, markers in planted.items():
            if owner != viewer:
                assert not any(m in text for m in markers), (viewer, owner)
    assert st.view(BLUE)["piles"][RED]["top"] == "advance"  # her pile's top when the turn began

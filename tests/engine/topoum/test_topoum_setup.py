"""Options, the deck, the deal and the initial battlefield (rulings T1-T7, T16, T17, G0.1)."""

from __future__ import annotations

from collections import Counter

import pytest
from topoum_positions import acts, do, hexes

from engine.core import InvalidOptions, get_game
from engine.topoum import board as B
from engine.topoum.cards import CARDS, CATEGORIES, PEACE, PRESETS
from engine.topoum.farmers import FARMERS

GAME = get_game("topoum")


def new(players=2, seed=1, **opts):
    return GAME.new_state(players, opts, seed)


def start_with(st, seat):
    """Make `seat` the start player of a fresh game (the draw is random, ruling G0.1)."""
    st.start = st.cur = seat
    st.order = [seat]
    st._legal = None
    return st


# --- options ------------------------------------------------------------------------------
def test_registered_under_its_name():
    from engine.core import all_games

    assert all_games()["topoum"].title == "Topoum"
    assert (GAME.min_players, GAME.max_players) == (2, 4)


def test_default_options():
    o = GAME.validate_options(2, {})
    assert o["radius"] == 6 and o["line_values"] == [-2, -1, 0, 1, 2]
    assert o["deck"] == "preset" and o["types"] == list(PRESETS["recruits"])
    assert o["obstacles"] is False and o["farmer"] == "random"


@pytest.mark.parametrize(
    "opts,code,facts",
    [
        ({"deck": "custom", "types": ["grenade"] * 7}, "topoum.options.deck_size", {"size": 7}),
        (
            {
                "deck": "custom",
                "types": ["bayonet", "short_range", "long_range", "grenade", "mortar_attack", "slingshot", "advance"],
            },
            "topoum.options.categories",
            {"missing": ["expansion", "special"]},
        ),
        ({"deck": "custom", "types": ["joker"]}, "options.unknown_values", {"option": "types", "values": ['"joker"']}),
        ({"preset": "duel"}, "topoum.options.duel_players", {"players": 3}),
        (
            {"obstacles": True, "farmer": "the_crusher", "preset": "strategists"},
            "topoum.options.obstacle_farmer_deck",
            {"farmer": "the_crusher"},
        ),
        (
            {"obstacles": True, "farmer": "kings_of_buckets", "preset": "strategists"},
            "topoum.options.obstacle_farmer_deck",
            {"farmer": "kings_of_buckets"},
        ),
        (
            {"obstacles": True, "farmer": "the_sprayer", "preset": "strategists"},
            "topoum.options.obstacle_farmer_deck",
            {"farmer": "the_sprayer"},
        ),
        ({"radius": 3}, "options.at_least", {"option": "radius", "min": 4}),
        ({"line_values": [1, 2, 3]}, "topoum.options.line_values", {"count": 5, "min": -10, "max": 10}),
        ({"farmer": "grandpa"}, "options.one_of", {"option": "farmer"}),
    ],
)
def test_bad_options_are_refused_with_a_reason(opts, code, facts):
    """The reason is a code and its facts (decision 13); games/options_words.py words it."""
    with pytest.raises(InvalidOptions) as err:
        GAME.validate_options(3, opts)
    assert err.value.code == code
    assert err.value.params["game"] == "topoum"
    assert {k: err.value.params.get(k) for k in facts} == facts


def test_obstacles_go_with_the_other_farmers():  # ruling T7
    for farmer in ("queen_of_nature", "lady_boom", "trap_master", "the_stomper", "lord_of_the_crates"):
        assert GAME.validate_options(2, {"obstacles": True, "farmer": farmer, "preset": "strategists"})["obstacles"]


FARMER_DECK = ["farmer", "grenade", "advance", "build_barracks", "tunnel", "conquest", "red_cross"]


@pytest.mark.parametrize("farmer", ["kings_of_buckets", "the_crusher", "the_sprayer"])
def test_an_obstacle_farmer_is_refused_with_obstacles_only_when_the_deck_holds_the_farmer_card(farmer):  # T21
    for deck in ({"deck": "custom", "types": FARMER_DECK}, {"deck": "preset", "preset": "strategists"}):
        with pytest.raises(InvalidOptions) as err:
            GAME.validate_options(2, {"obstacles": True, "farmer": farmer, **deck})
        assert err.value.reason == ("topoum.options.obstacle_farmer_deck", {"game": "topoum", "farmer": farmer})
    # no "Farmer is coming!" in the deck: the farmer option is ignored and obstacles are played
    for preset in ("recruits", "tacticians", "duel"):
        st = new(2, 5, obstacles=True, farmer=farmer, preset=preset)
        assert st.farmer is None and st.opts["obstacles"]
        assert not any(f in (B.PUDDLE, B.ROCK, B.GAS) for f in st.feat)  # no farmer tiles on the zones
    # a random deck is accepted and drawn without the card (ruling T21, turn 3; tested below)
    assert GAME.validate_options(2, {"obstacles": True, "farmer": farmer, "deck": "random"})["obstacles"]


OBSTACLE_FARMERS = ["kings_of_buckets", "the_crusher", "the_sprayer"]


@pytest.mark.parametrize("farmer", OBSTACLE_FARMERS)
@pytest.mark.parametrize("players", [2, 4])
def test_a_random_deck_with_obstacles_and_an_obstacle_farmer_is_drawn_without_the_farmer_card(farmer, players):
    # ruling T21 (turn 3): accepted, and the draw leaves "Farmer is coming!" out, so the farmer never comes
    opts = GAME.validate_options(players, {"obstacles": True, "farmer": farmer, "deck": "random"})
    drawn = set()
    for seed in range(150):
        st = GAME.new_state(players, opts, seed)
        types = st.opts["types"]
        assert "farmer" not in types and len(set(types)) == 7
        assert {CARDS[t][1] for t in types} == set(CATEGORIES)  # still one of each category (T6)
        assert "farmer" not in st.deck + st.line + [c for h in st.hands for c in h]
        assert st.farmer is None and st.opts["obstacles"]
        assert not any(f in (B.PUDDLE, B.ROCK, B.GAS) for f in st.feat)  # no farmer tiles on the zones
        drawn.add(tuple(types))
    assert len(drawn) > 100  # still a random draw
    # every other Special type still comes up
    assert {t for types in drawn for t in types} == set(CARDS) - {"farmer"}


def test_other_random_decks_may_still_hold_the_farmer_card():  # rulings T6, T7, T21
    def farmers_dealt(**opts):
        checked = GAME.validate_options(2, {"deck": "random", **opts})
        states = (GAME.new_state(2, checked, seed) for seed in range(150))
        return [st.farmer for st in states if "farmer" in st.opts["types"]]

    assert set(farmers_dealt(farmer="the_crusher")) == {"the_crusher"}  # no obstacles: the farmer comes
    assert set(farmers_dealt(obstacles=True, farmer="queen_of_nature")) == {"queen_of_nature"}
    drawn = farmers_dealt(obstacles=True)  # a "random" farmer is drawn among those that fit (RULES_NOTES 3)
    assert drawn and not set(drawn) & set(OBSTACLE_FARMERS)


def test_the_draw_without_the_farmer_card_replays_and_leaves_other_draws_as_they_were():  # ruling G0.2
    opts = GAME.validate_options(3, {"obstacles": True, "farmer": "the_crusher", "deck": "random"})
    assert GAME.new_state(3, opts, 9).to_json() == GAME.new_state(3, opts, 9).to_json()
    # a random deck that may hold every type draws as before: games already stored replay unchanged
    plain = GAME.validate_options(3, {"deck": "random"})
    assert GAME.new_state(3, plain, 5).opts["types"] == [  # drawn by the code before the ruling
        "bayonet",
        "grenade",
        "advance",
        "panic_attack",
        "abandoned_barracks",
        "prisoner_of_war",
        "medal_of_honor",
    ]


def test_random_farmer_with_obstacles_never_uses_the_obstacle_tiles():
    types = ["farmer", "grenade", "advance", "build_barracks", "tunnel", "conquest", "red_cross"]
    drawn = {new(2, seed, deck="custom", types=types, obstacles=True).farmer for seed in range(60)}
    assert drawn and not drawn & {"kings_of_buckets", "the_crusher", "the_sprayer"}
    assert len(drawn) >= 4


# --- deck -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players,copies", [(2, 5), (3, 6), (4, 7)])
def test_deck_has_seven_types_times_copies_and_one_peace(players, copies):  # ruling T6
    st = new(players, deck="preset", preset="tacticians" if players > 2 else "duel")
    cards = st.deck + st.line + [c for h in st.hands for c in h]
    counts = Counter(cards)
    assert counts.pop(PEACE) == 1
    assert len(counts) == 7 and set(counts.values()) == {copies}
    assert len(cards) == 7 * copies + 1


def test_peace_is_always_in_the_bottom_six():  # ruling T6
    for seed in range(40):
        st = new(3, seed)
        assert st.deck.index(PEACE) < 6  # the deck's top is its last item


def test_hands_of_two_and_a_full_line():
    st = new(4)
    assert [len(h) for h in st.hands] == [2, 2, 2, 2]
    assert len(st.line) == 5 and all(st.line)
    assert PEACE not in st.line


def test_presets_are_the_sites():  # ruling T6
    assert GAME.validate_options(2, {"preset": "duel"})["types"] == list(PRESETS["duel"])
    st = new(3, deck="preset", preset="strategists")
    assert set(st.opts["types"]) == set(PRESETS["strategists"]) and st.farmer in FARMERS


def test_random_types_respect_the_categories():  # ruling T6
    for seed in range(30):
        types = new(2, seed, deck="random").opts["types"]
        assert len(set(types)) == 7
        assert {CARDS[t][1] for t in types} == set(CATEGORIES)


def test_the_same_seed_deals_the_same_game():
    a, b = new(3, 42, deck="random"), new(3, 42, deck="random")
    assert a.to_json() == b.to_json()
    assert new(3, 43, deck="random").to_json() != a.to_json()


def test_board_radius_option():  # ruling T1
    assert new(2).geo.size == 127
    assert new(2, radius=4).geo.size == 61


# --- initial battlefield -------------------------------------------------------------------
def test_three_player_initial_battlefield_example():
    """Rulebook example: Red starts, lays the centre, each places a barracks by it, then barracks with moles."""
    st = start_with(new(3), 0)
    assert acts(st) == [{"type": "place", "hex": [0, 0]}]
    do(st, type="place", hex=[0, 0])
    centre = st.geo.centre
    assert st.tile[centre] == 0  # Red's tile, neutral side up (ruling T4)
    # 1a-1c: Red, Blue, Yellow each place a barracks next to the centre
    assert st.cur == 0 and hexes(st) == {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    do(st, hex=[1, 0])
    assert st.cur == 1 and (1, 0) not in hexes(st)
    do(st, hex=[-1, 0])
    assert st.cur == 2
    do(st, hex=[0, 1])
    # 2a-2c: barracks with a mole anywhere next to the battlefield, again from Red
    assert st.cur == 0
    spaces = hexes(st)
    assert (2, 0) in spaces and (1, -1) in spaces and (3, 0) not in spaces and (0, 0) not in spaces
    do(st, hex=[1, -1])
    assert st.mole[st.geo.cell((1, -1))] == 0 and st.tile[st.geo.cell((1, -1))] == B.BARRACKS + 0
    do(st, hex=[-2, 0])
    do(st, hex=[0, 2])
    assert st.phase == "play" and st.cur == 0 and st.stage == "start"
    assert st.moles_left == [3, 3, 3]
    assert st.tiles_left[:3] == [16 - 3, 14, 14]


def test_the_start_player_is_drawn():  # ruling G0.1
    assert {new(4, seed).start for seed in range(40)} == {0, 1, 2, 3}


def _through_battlefield(st):
    while st.phase == "setup" and st.step in ("centre", "ring", "mole"):
        do(st)
    return st


def test_obstacle_placement_from_the_last_player_backwards():  # ruling T16
    st = _through_battlefield(start_with(new(3, obstacles=True), 1))
    assert st.step == "obstacle" and st.cur == 0  # the last player before Blue is Red
    a = acts(st, kind="rock")[0]
    spot = st.geo.cell(a["hex"])
    assert any(B.BARRACKS <= st.tile[j] < B.STANDALONE for j in st.geo.nb[spot] if j >= 0)
    do(st, type="obstacle", kind="rock", hex=a["hex"])
    assert st.feat[spot] == B.ROCK and st.tile[spot] == B.STANDALONE and st.bf[spot]
    assert st.cur == 2
    do(st, kind="puddle")
    do(st, kind="rock")
    assert st.step == "outpost" and st.cur == 0
    x_spaces = {(4, 0), (4, -4), (0, -4), (-4, 0), (-4, 4), (0, 4)}  # ruling T2
    assert hexes(st) == {h for h in x_spaces if st.tile[st.geo.cell(h)] < 0}
    assert (4, 0) in hexes(st)
    do(st, kind="puddle", hex=[4, 0])
    x = st.geo.cell((4, 0))
    assert st.feat[x] == B.PUDDLE and not st.bf[x]  # an outpost (ruling T3)
    assert not acts(st, kind="rock") and not acts(st, kind="puddle")  # the four puddle/rock tiles are used
    do(st, kind="gas")
    do(st, kind="ice")
    assert st.phase == "play" and st.cur == 1


@pytest.mark.parametrize(
    "farmer,feature", [("kings_of_buckets", B.PUDDLE), ("the_crusher", B.ROCK), ("the_sprayer", B.GAS)]
)
def test_zone_farmers_put_four_tiles_on_neutral_outposts(farmer, feature):  # rulings T2, T4, T17
    st = new(2, deck="preset", preset="strategists", farmer=farmer)
    for h in ((3, 0), (-3, 0), (0, 3), (0, -3)):
        x = st.geo.cell(h)
        assert st.feat[x] == feature and st.tile[x] in (2, 3) and not st.bf[x]
    assert st.tiles_left == [16, 16, 14, 14]


def test_four_players_give_one_neutral_tile_each_for_the_zones():  # ruling T4
    st = new(4, deck="preset", preset="strategists", farmer="lord_of_the_crates")
    assert st.tiles_left == [15, 15, 15, 15]
    assert sorted(st.crate_values) == [0, 2, 3, 5]


@pytest.mark.parametrize(
    "farmer,feature", [("queen_of_nature", B.TURNIP), ("trap_master", B.TRAP), ("the_stomper", B.FOOTPRINT)]
)
def test_centre_farmers_lie_on_the_centre_tile(farmer, feature):  # ruling T17
    st = new(2, deck="preset", preset="strategists", farmer=farmer)
    do(st, type="place")
    c = st.geo.centre
    assert st.feat[c] == feature and st.tile[c] == st.start


def test_lady_boom_dynamite_replaces_the_centre_tile():  # ruling T17
    st = new(2, deck="preset", preset="strategists", farmer="lady_boom")
    do(st, type="place")
    c = st.geo.centre
    assert st.feat[c] == B.DYNAMITE and st.tile[c] == B.STANDALONE
    assert st.tiles_left[st.start] == 16


def test_no_farmer_without_its_card():
    assert new(2, farmer="the_stomper").farmer is None


def test_setup_views_offer_the_legal_choices():
    st = new(2)
    v = st.view(st.cur)
    assert st.legal_actions(st.cur) == [{"type": "place", "hex": [0, 0]}]  # beside the view, not in it
    assert v["decision"]["prompt"] == {"code": "topoum.prompt.setup_centre"}
    assert st.legal_actions(1 - st.cur) == []

"""The create-table page: a form built from the games' metadata, with the services' messages next to the fields."""

import pytest

from engine.core import all_games
from games.models import Game

pytestmark = pytest.mark.django_db


def field_block(html: str, name: str) -> str:
    """The HTML of the form row (div.field) holding the input called `name`."""
    for chunk in html.split('<div class="field')[1:]:
        if f'name="{name}"' in chunk:
            return chunk
    raise AssertionError(f"no field {name} in the page")


def base_post(**changes):
    data = {"game": "topology", "players": "2", "pace": "correspondence", "days": "3", "live_seconds": "60"}
    data.update(changes)
    return data


def test_anonymous_visitors_are_sent_to_log_in(client):
    reply = client.get("/tables/new/")
    assert reply.status_code == 302 and reply["Location"].startswith("/accounts/login/")


def test_the_form_offers_every_game_and_its_options(owner_client):
    html = owner_client.get("/tables/new/").content.decode()
    for name, game in all_games().items():
        assert f'value="{name}"' in html
        for option in game.metadata()["options"]:
            if option["name"] != "pace":  # the table's pace sets Toppo's (rulings P3, P4)
                assert f'name="opt__{name}__{option["name"]}"' in html
    for level in ("random", "greedy", "strong", "expert"):
        assert f'value="{level}"' in html


def test_the_form_says_how_long_the_searching_bots_may_think(owner_client):
    # Decision 30, point 2: expert is stronger for thinking longer, so the form states each level's limit.
    from engine.bots import thinking_seconds

    html = owner_client.get("/tables/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for level, label in (("strong", "Strong"), ("expert", "Expert")):
        live, turn = thinking_seconds(level, "live"), thinking_seconds(level, "correspondence")
        assert f"{label}: up to {live:g} s a move at a live table, {turn:g} s a turn by correspondence" in html
    assert "Greedy: up to" not in html  # a level that does not search answers at once


def test_it_opens_a_table_and_goes_to_it(owner_client, owner):
    reply = owner_client.post("/tables/new/", base_post(players="3", bot_1="random", private="on", days="7"))
    game = Game.objects.get()
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
    assert (game.kind, game.players, game.private, game.turn_seconds) == ("topology", 3, True, 7 * 86400)
    assert [(s.index, s.user_id, s.bot_level) for s in game.seats.all()] == [(0, owner.pk, ""), (1, None, "random")]


def test_bots_beyond_the_player_count_are_ignored(owner_client):
    owner_client.post("/tables/new/", base_post(players="2", bot_1="random", bot_2="random", bot_3="greedy"))
    game = Game.objects.get()
    assert [s.bot_level for s in game.seats.all()] == ["", "random"]


def test_a_table_its_bots_fill_starts_itself_when_the_box_is_ticked(owner_client):
    # Decision 26: "Start as soon as every seat is taken" ticked, every other seat a bot: the game is on at once.
    reply = owner_client.post("/tables/new/", base_post(players="3", bot_1="random", bot_2="random", auto_start="on"))
    game = Game.objects.get()
    assert reply.status_code == 302 and reply["Location"] == f"/tables/{game.pk}/"
    assert game.status == Game.Status.RUNNING
    owner_client.post("/tables/new/", base_post(players="3", bot_1="random", bot_2="random"))  # unticked
    assert Game.objects.exclude(pk=game.pk).get().status == Game.Status.OPEN


def test_the_advanced_variant_with_three_players_is_refused_next_to_its_checkbox(owner_client):
    # ruling L6: the advanced variant is for two players only.
    reply = owner_client.post("/tables/new/", base_post(players="3", opt__topology__advanced="on"))
    assert reply.status_code == 400
    assert "opt__topology__advanced" in reply.context["form"].errors
    assert "two players only" in field_block(reply.content.decode(), "opt__topology__advanced")
    assert Game.objects.count() == 0


def test_the_advanced_variant_with_two_players_is_accepted(owner_client):
    owner_client.post("/tables/new/", base_post(opt__topology__advanced="on"))
    assert Game.objects.get().options["advanced"] is True


def test_a_player_count_out_of_range_is_refused_next_to_the_count(owner_client):
    reply = owner_client.post("/tables/new/", base_post(players="5"))
    assert reply.status_code == 400
    assert "2 to 4 players" in field_block(reply.content.decode(), "players")


def test_a_live_pace_is_only_for_toppo(owner_client):
    reply = owner_client.post("/tables/new/", base_post(pace="live"))
    assert reply.status_code == 400
    assert "Topology is not played at a live pace" in " ".join(reply.context["form"].errors["pace"])


@pytest.mark.skipif("toppo" not in all_games(), reason="the Toppo engine is not registered")
def test_a_live_toppo_table_gets_the_live_clock(owner_client):
    owner_client.post(
        "/tables/new/", base_post(game="toppo", players="3", pace="live", live_seconds="30", opt__toppo__hands="2")
    )
    game = Game.objects.get()
    assert (game.kind, game.pace, game.turn_seconds, game.options["pace"], game.options["hands"]) == (
        "toppo",
        "live",
        30,
        "live",
        2,
    )


def test_options_of_other_games_do_not_block_the_chosen_one(owner_client):
    # A nonsense value in another game's option field is ignored, not reported.
    reply = owner_client.post("/tables/new/", base_post(opt__toppo__hands="many"))
    assert reply.status_code == 302
    assert Game.objects.get().kind == "topology"

"""Bots that say what they do, and where Topoum's medals came from (decision 26, points 2 and 6).

A table's bots are named by level and seat number ("Random 2") in the page, the log, the API and the export; the bot
whose turn it is says since when it thinks; another seat's decision is never worded to the reader; and the medal
breakdown adds up to the medals the reader's view shows, on the page and in the API.
"""

from __future__ import annotations

import random
import re

import pytest
from django.utils import translation

from boards.topoum.breakdown import START, medal_breakdown
from engine.core import get_game
from games import selectors, services
from games.models import Game
from games.selectors.export import game_export
from games.selectors.positions import load_state

pytestmark = pytest.mark.django_db


def bot_table(owner, bots=("random", "random"), kind="topoum") -> Game:
    game = services.game_create(user=owner, kind=kind, players=1 + len(bots), bots=list(bots))
    return services.game_start(user=owner, game_id=game.pk)


def play_hers(game: Game, user, turns: int, rng: random.Random) -> Game:
    """She plays `turns` of her turns (random decisions, ending when she may); the bots answer at once (eager)."""
    done = 0
    for _ in range(2000):
        game.refresh_from_db()
        if not game.is_running or done >= turns:
            break
        detail = selectors.table_detail(game, user)
        assert detail["my_turn"], "the bots answer at once (eager tasks, after the commit)"
        legal = [a for a in detail["legal_actions"] if a["type"] != "undo"]
        ends = [a for a in legal if a["type"] == "end_turn"]
        action = ends[0] if ends and rng.random() < 0.5 else rng.choice(legal)
        services.action_submit(game_id=game.pk, user=user, action=action, expected_version=game.version)
        if action["type"] == "end_turn":
            done += 1
    game.refresh_from_db()
    return game


@pytest.mark.django_db(transaction=True)
def test_bots_are_named_by_level_and_seat_everywhere(owner, owner_client, celery_eager):
    game = play_hers(bot_table(owner), owner, 2, random.Random(1))
    html = owner_client.get(f"/tables/{game.pk}/").content.decode()
    assert "Random 2" in html and "Random 3" in html and "Bot (" not in html
    api = owner_client.get(f"/api/tables/{game.pk}/").json()
    assert [s["name"] for s in api["seats"]] == ["ana", "Random 2", "Random 3"]
    log = owner_client.get(f"/api/tables/{game.pk}/actions/").json()
    lines = [row["description"] for row in log["results"]]
    assert any("Random 2" in line for line in lines) and any("Random 3" in line for line in lines)
    with translation.override("es"):
        assert selectors.table_detail(game, owner)["seats"][1]["name"] == "Aleatorio 2"
        assert [s["name"] for s in game_export(game)["seats"]][1:] == ["Aleatorio 2", "Aleatorio 3"]


def test_the_bot_to_act_says_since_when_it_thinks_and_her_prompt_is_not_said_to_others(owner, owner_client):
    # No eager tasks: the bot's turn waits, as it does while a worker thinks.
    game = bot_table(owner, bots=("strong", "strong"))
    for _ in range(200):
        game.refresh_from_db()
        if game.to_act != [0]:
            break
        state = load_state(game)
        action = next(a for a in state.legal_actions(0) if a["type"] != "undo")
        services.action_submit(game_id=game.pk, user=owner, action=action, expected_version=game.version)
    game.refresh_from_db()
    bot = game.to_act[0]
    assert bot != 0
    seat = next(s for s in owner_client.get(f"/api/tables/{game.pk}/").json()["seats"] if s["index"] == bot)
    assert seat["thinking_since"] and seat["name"] == f"Strong {bot + 1}"
    html = owner_client.get(f"/tables/{game.pk}/").content.decode()
    assert f"Strong {bot + 1} is thinking…" in html and 'class="bot-thinking"' in html
    assert re.search(r'class="bot-thinking-secs">\d+ s<', html)
    # The status line never words the bot's decision as if it were hers ("… move one of your moles").
    status = re.search(r'<div class="tm-status">(.*?)</div>', html, re.S).group(1)
    assert "your" not in status.lower() and "is deciding" not in status
    # A person's own seat never says it thinks.
    assert all("thinking_since" not in s for s in selectors.table_detail(game, owner)["seats"] if s["index"] == 0)


def test_the_medal_breakdown_adds_up_to_every_seats_medals_in_random_games():
    """Engine-made log entries, summed: START plus every source is the medals of each seat after every decision."""
    game = get_game("topoum")
    for seed in range(3):
        state = game.new_state(3, game.validate_options(3, {"obstacles": seed % 2 == 0}), f"medals-{seed}")
        rng = random.Random(seed)
        rows = []
        while not state.is_over() and len(rows) < 600:
            seat = state.to_act()[0]
            action = rng.choice([a for a in state.legal_actions(seat) if a["type"] != "undo"])
            before = state.clone()
            state.apply(seat, action)
            rows.append((seat, state.describe(seat, action, before)))
            final = state.view(None).get("final")
            totals = [r["total"] for r in medal_breakdown(rows, 3, final)["seats"]]
            assert totals == state.medals, (seed, len(rows), rows[-1])
        assert START == 10


@pytest.mark.django_db(transaction=True)
def test_the_breakdown_is_in_the_api_and_on_the_page(owner, owner_client, client, celery_eager):
    game = play_hers(bot_table(owner), owner, 4, random.Random(3))
    api = owner_client.get(f"/api/tables/{game.pk}/").json()
    breakdown = api["score_breakdown"]
    assert [s["total"] for s in breakdown["seats"]] == api["view"]["medals"]
    assert breakdown["last_seat"] in (0, 1, 2) and "lines" in breakdown["sources"]
    spectator = client.get(f"/api/tables/{game.pk}/").json()
    assert [s["total"] for s in spectator["score_breakdown"]["seats"]] == spectator["view"]["medals"]
    html = owner_client.get(f"/tables/{game.pk}/").content.decode()
    assert "Where the medals came from" in html and 'class="tm-medals-table"' in html
    with translation.override("zh-hant"):
        html = owner_client.get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "Where the medals came from" not in html


def test_a_game_without_a_breakdown_has_none(owner, owner_client):
    game = bot_table(owner, bots=("random",), kind="topology")
    assert "score_breakdown" not in owner_client.get(f"/api/tables/{game.pk}/").json()


def test_the_table_options_read_in_plain_words(owner):
    from games.templatetags.topos import options_text

    game = services.game_create(user=owner, kind="topoum", players=2)
    words = options_text("topoum", game.options)
    assert words == "cards: the rulebook's deck for a first game"  # the defaults said no more
    assert "Action deck" not in words and "Preset" not in words and "radius" not in words
    strategists = {**game.options, "preset": "strategists", "farmer": "lady_boom", "obstacles": True, "radius": 8}
    assert options_text("topoum", strategists) == (
        "cards: the rulebook's deck for strategic players; the farmer: Lady Boom; "
        "obstacles on the board (expert variant); a battlefield 8 spaces from the centre to the edge"
    )
    with translation.override("es"):
        assert options_text("topoum", game.options) == "cartas: el mazo del reglamento para una primera partida"
    with translation.override("zh-hant"):
        assert "規則書" in options_text("topoum", game.options)


def test_the_commitment_is_in_the_games_details_and_places_are_words(owner, owner_client):
    game = bot_table(owner, bots=("strong",))
    html = owner_client.get(f"/tables/{game.pk}/").content.decode()
    details = re.search(r'<details class="game-details">(.*?)</details>', html, re.S)
    assert details and game.seed_commitment in details.group(1)
    assert html.count(game.seed_commitment) == 1  # nowhere else on the page
    game.refresh_from_db()
    if game.to_act == [0]:
        paths = re.search(r'<script id="topoum-paths" type="application/json">(.*?)</script>', html, re.S)
        assert paths and not re.search(r"\(-?\d+,-?\d+\)", paths.group(1))  # no "(-3,0)" in the choice bar


def test_by_correspondence_a_bots_thinking_counts_in_its_reaction_time(owner, settings):
    """Decision 26: a strong bot's turn limit (3 s) covers its reaction time (0.8-1.8 s): it starts thinking at once;
    a random bot, which thinks no time, still waits a person's reaction time."""
    from engine.bots import LEVELS
    from games.services.bots import bot_delay

    settings.TOPOS_BOT_DELAY_SCALE = 1
    game = bot_table(owner, bots=("strong", "random"))
    strong, rand = game.seats.get(index=1), game.seats.get(index=2)
    assert bot_delay(game, strong) == 0.0
    lo, hi = LEVELS["random"]["delay_seconds"]
    assert lo <= bot_delay(game, rand) <= hi

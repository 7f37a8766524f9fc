"""A table whose options the rules refuse: 400 worded in the reader's language, with the engine's code (decision 13)."""

import re

import pytest

from games.models import Game

pytestmark = pytest.mark.django_db

ENGLISH = re.compile(r"[A-Za-z]+[,;:]? [A-Za-z]+ [A-Za-z]+")

# One refusal per game: (body, code, facts, the Spanish words, the Chinese words).
REFUSALS = [
    (
        {"game": "topology", "players": 3, "options": {"advanced": True}},
        "topology.options.advanced_players",
        {"game": "topology", "players": 3},
        "La variante avanzada de Topology es solo para dos jugadores, no 3.",
        "Topology 的進階變體只限兩人，不是 3 人。",
    ),
    (
        {"game": "toppo", "players": 2, "options": {"hands": 21}},
        "options.at_most",
        {"game": "toppo", "option": "hands", "max": 20},
        "La opción «Manos» debe ser como mucho 20.",
        "選項「局數」最多只能是 20。",
    ),
    (
        {"game": "topoum", "players": 3, "options": {"preset": "duel"}},
        "topoum.options.duel_players",
        {"game": "topoum", "players": 3},
        "El mazo Duelo es para 2 jugadores; elige otro mazo para 3 jugadores.",
        "「決鬥」牌組只適用於 2 人；3 人請選擇其他牌組。",
    ),
]


@pytest.mark.parametrize("body,code,facts,spanish,chinese", REFUSALS)
def test_refused_options_read_in_the_readers_language_with_a_stable_code(
    owner_api, body, code, facts, spanish, chinese
):
    for language, words in (("es", spanish), ("zh-hant", chinese)):
        reply = owner_api.post("/api/tables/", body, format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert reply.status_code == 400
        answer = reply.json()
        assert answer == {"error": "bad_request", "detail": words, "reason": code, "params": facts}
    english = owner_api.post("/api/tables/", body, format="json", HTTP_ACCEPT_LANGUAGE="en").json()
    assert english["reason"] == code and english["detail"] not in (spanish, chinese)
    assert not ENGLISH.search(chinese)
    assert not Game.objects.exists()


def test_an_unknown_option_names_the_games_options(owner_api):
    reply = owner_api.post(
        "/api/tables/",
        {"game": "topology", "players": 2, "options": {"colour": "red"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert reply.status_code == 400
    assert reply.json()["reason"] == "options.unknown"
    assert reply.json()["detail"] == "Opciones desconocidas para Topology: colour. Sus opciones son: advanced."


def test_the_catalogue_words_each_bot_level_in_the_readers_language(owner_api):
    """The engine holds a level's settings only; its name and description are the site's words (decision 13)."""
    levels = owner_api.get("/api/catalogue/", HTTP_ACCEPT_LANGUAGE="es").json()["bot_levels"]
    greedy = dict(levels["greedy"])
    assert isinstance(greedy.pop("ratings"), dict)  # its published strength per rating (decision 30, docs/bots.md)
    assert greedy == {
        "label": "Codicioso",
        "description": "Elige la jugada que más puntúa ahora mismo. En una mesa en vivo reacciona más o "
        "menos tan rápido como una persona.",
    }
    # Decision 26: each level says how fast it reacts at a live table.
    assert levels["beginner"]["label"] == "Principiante" and "más despacio" in levels["beginner"]["description"]
    assert (
        levels["expert"]["label"] == "Experto" and "más rápido" in levels["expert"]["description"]
    )  # decision 30, point 2
    english = owner_api.get("/api/catalogue/", HTTP_ACCEPT_LANGUAGE="en").json()["bot_levels"]
    assert english["strong"]["description"].startswith("Looks ahead")
    assert set(levels) == set(english) and all(level["description"] for level in levels.values())


@pytest.mark.parametrize("language", ["es", "zh-hant"])
def test_the_catalogue_names_games_and_options_in_the_readers_language(owner_api, language):
    english = {g["name"]: g for g in owner_api.get("/api/catalogue/", HTTP_ACCEPT_LANGUAGE="en").json()["games"]}
    hers = {g["name"]: g for g in owner_api.get("/api/catalogue/", HTTP_ACCEPT_LANGUAGE=language).json()["games"]}
    assert set(hers) == set(english)
    assert hers["topoum"]["title"] != english["topoum"]["title"] or language == "es"  # 鼴鼠大兵; Topoum in Spanish
    for name, game in hers.items():
        for mine, theirs in zip(game["options"], english[name]["options"]):
            assert mine["name"] == theirs["name"] and mine["label"] and mine["label"] != theirs["label"], mine
            assert (mine["help"] != theirs["help"]) or not theirs["help"], mine


@pytest.mark.parametrize("farmer", ["the_crusher", "kings_of_buckets"])
def test_a_random_deck_with_obstacles_and_an_obstacle_farmer_opens_and_deals_no_farmer_card(
    owner_api, member_api, farmer
):
    """Ruling T21 (turn 3): accepted, and the deck is drawn without "Farmer is coming!"."""
    from games.selectors.positions import load_state

    options = {"deck": "random", "obstacles": True, "farmer": farmer}
    created = owner_api.post("/api/tables/", {"game": "topoum", "players": 2, "options": options}, format="json")
    assert created.status_code == 201, created.data
    table = created.data["id"]
    assert member_api.post(f"/api/tables/{table}/join/").data["status"] == "running"
    view = owner_api.get(f"/api/tables/{table}/").data["view"]
    assert view["options"]["obstacles"] and view["farmer"] is None
    assert len(view["options"]["types"]) == 7 and "farmer" not in view["options"]["types"]
    state = load_state(Game.objects.get(pk=table))
    assert "farmer" not in state.deck + state.line + [card for hand in state.hands for card in hand]

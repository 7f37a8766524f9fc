"""The How to play pages (decision 13): every game in every language, with diagrams from the table's renderer,
every card kind of the catalogue, and only rulings that exist in docs/rules/; and the links that lead there."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from boards.topology import diagrams as topology_diagrams
from boards.topoum import diagrams as topoum_diagrams
from boards.topoum import presenter as topoum_presenter
from boards.toppo import diagrams as toppo_diagrams
from boards.toppo import presenter as toppo_presenter
from engine.core import all_games
from tests.games.factories import started_topology
from tests.test_rules_docs import rule_headings

pytestmark = pytest.mark.django_db

GAMES = ("topoum", "toppo", "topology")
LANGUAGES = {"en": "en", "es": "es", "zh-hant": "zh-hant"}  # Accept-Language -> <html lang>
CJK = re.compile(r"[\u4e00-\u9fff]")
CITED = re.compile(r'<a class="ruling" href="/rules/rulings/#([^"]+)">')
HEADING = re.compile(r"<h([23])[^>]*>(.*?)</h\1>", re.S)
SECTION = re.compile(r"<section id=\"(\w+)\">(.*?)</section>", re.S)
# What each page's "How Topos plays it" has to tell a player, by ruling (decision 13 point 4).
MUST_CITE = {
    "topoum": {"T1", "T2", "T5", "T6", "T8", "S1", "S3", "S4", "S5", "S6"},
    "toppo": {"P2", "P3", "P4", "P5", "P6", "S1", "S4", "S5", "S6"},
    "topology": {"L1", "L2", "L3", "L4", "L5", "L6", "L7", "S1", "S3", "S4", "S5", "S6"},
}


def page(client, path: str, language: str = "en") -> str:
    reply = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert reply.status_code == 200, path
    return reply.content.decode()


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("kind", GAMES)
def test_each_game_has_a_page_in_each_language(client, kind, language):
    html = page(client, f"/rules/{kind}/", language)
    assert f'<html lang="{LANGUAGES[language]}">' in html
    sections = dict(SECTION.findall(html))
    assert {"goal", "components", "setup", "topos"} <= set(sections), sections.keys()
    headings = [text_of(h).strip() for _, h in HEADING.findall(html)]
    assert len(headings) >= 7
    if language == "zh-hant":
        # Every section is written in Chinese, and no heading is left in English.
        assert all(CJK.search(text_of(body)) for body in sections.values())
        assert all(CJK.search(h) for h in headings), headings
    else:
        assert not any(CJK.search(text_of(body)) for body in sections.values())


def test_the_spanish_and_chinese_pages_are_not_the_english_one(client):
    for kind in GAMES:
        english = {text_of(h).strip() for _, h in HEADING.findall(page(client, f"/rules/{kind}/"))}
        for language in ("es", "zh-hant"):
            other = {text_of(h).strip() for _, h in HEADING.findall(page(client, f"/rules/{kind}/", language))}
            assert not english & other, (kind, language, english & other)
    assert "How Topos plays it" in page(client, "/rules/topoum/")
    assert "Cómo lo juega Topos" in page(client, "/rules/topoum/", "es")
    assert "Topos 的玩法" in page(client, "/rules/topoum/", "zh-hant")


@pytest.mark.parametrize("language", LANGUAGES)
def test_diagrams_are_drawn_by_the_table_renderer(client, language):
    topoum = page(client, "/rules/topoum/", language)
    # The battlefield as boards/topoum/presenter.py draws it: barracks, moles and the new line of sight.
    assert topoum.count('<svg class="tm-board rules-diagram" viewBox="') == 2
    assert 'class="tile barracks c-red' in topoum and 'class="mole m-blue' in topoum
    assert '<g class="tm-los">' in topoum
    topology = page(client, "/rules/topology/", language)
    assert topology.count('<svg class="topo-board rules-diagram" viewBox="') == 2
    assert 'class="curve in-ring hue-' in topology  # the closed rings in their colours
    toppo = page(client, "/rules/toppo/", language)
    assert toppo.count('<svg class="tp-card c-') >= 25 + 3 * 3 + 2 * 3  # every kind, the top and the match deals
    assert '<symbol id="tp-waves"' in toppo


def test_diagram_labels_follow_the_reader_language(client):
    zh = page(client, "/rules/toppo/", "zh-hant")
    with translation.override("zh-hant"):
        assert f"<title>{toppo_presenter.card({'colour': 'red', 'symbol': 'plus'})['label']}</title>" in zh
    assert "<title>red plus</title>" not in zh
    es = page(client, "/rules/topoum/", "es")
    assert "Rojo" in es and ", Red mole" not in es


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_kind_of_the_catalogue_is_explained(client, language):
    topoum = all_games()["topoum"].metadata()["options"]
    types = next(o for o in topoum if o["name"] == "types")["choices"]
    farmers = [f for f in next(o for o in topoum if o["name"] == "farmer")["choices"] if f != "random"]
    assert len(types) == 22 and len(farmers) == 8
    html = text_of(page(client, "/rules/topoum/", language))
    with translation.override(language):
        for card in [*types, "peace"]:
            assert topoum_presenter.card_title(card) in html, card
        for farmer in farmers:
            assert translation.gettext(topoum_presenter.FARMER_TITLES[farmer]) in html, farmer
    toppo = text_of(page(client, "/rules/toppo/", language))
    with translation.override(language):
        for words in (*toppo_presenter.COLOUR_LABELS.values(), *toppo_presenter.SYMBOL_LABELS.values()):
            assert translation.gettext(words) in toppo, words
    topology = text_of(page(client, "/rules/topology/", language))
    assert "52" in topology and "26" in topology  # the tile set (ruling L1)


@pytest.mark.parametrize("kind", GAMES)
def test_the_rulings_a_page_cites_exist_and_cover_what_a_player_needs(client, kind):
    headings = rule_headings()
    for language in LANGUAGES:
        html = page(client, f"/rules/{kind}/", language)
        cited = set(CITED.findall(html))
        assert cited and cited <= set(headings), cited - set(headings)
        topos = dict(SECTION.findall(html))["topos"]
        assert MUST_CITE[kind] <= set(CITED.findall(topos)) | cited, MUST_CITE[kind] - cited


def test_the_rulings_page_has_every_ruling_as_an_anchor(client):
    html = page(client, "/rules/rulings/")
    anchors = set(re.findall(r'id="([^"]+)"', html))
    assert set(rule_headings()) <= anchors
    assert len(re.findall(r'id="([^"]+)"', html)) == len(anchors)  # no id twice on the page
    assert "Motorbike Patrol" in html and "<table>" in html


def test_the_worked_examples_add_up_as_the_engine_scores_them():
    topoum = topoum_diagrams.diagrams()
    assert topoum["medals"] == topoum["squares"] + topoum["own_barracks"] > 0  # ruling T18
    assert [line["medals"] for line in topoum["turn"]["lines"]] == [topoum["medals"]]
    topology = topology_diagrams.diagrams()
    assert any(ring["inner"] for ring in topology["rings"])  # a ring around another (ruling L4)
    assert sum(int(part) for part in topology["sum"].split(" + ")) == topology["points"]
    toppo = toppo_diagrams.diagrams()
    assert toppo["top_after_display"] == toppo["top_laid"]  # the line now covers the display (ruling P4)
    assert all(p["line"] == toppo["match_display"][p["display_pos"] - 1] for p in toppo["match_pairs"])


def test_index_lists_the_three_games_and_unknown_games_are_not_found(client):
    html = page(client, "/rules/", "es")
    for kind in GAMES:
        assert f'href="/rules/{kind}/"' in html
    assert "Cómo se juega" in html
    assert client.get("/rules/chess/").status_code == 404


def test_links_from_the_nav_the_new_table_form_and_the_table_page(owner_client, owner, member):
    form = page(owner_client, "/tables/new/")
    for kind in GAMES:
        assert f'class="rules-link" href="/rules/{kind}/"' in form
    assert 'href="/rules/"' in form  # the navigation
    game = started_topology(owner, member)
    table = page(owner_client, f"/tables/{game.pk}/", "zh-hant")
    assert 'class="rules-link" href="/rules/topology/"' in table and ">規則</a>" in table


def test_the_catalogue_api_gives_each_game_its_rules_page(client):
    games = client.get("/api/catalogue/").json()["games"]
    assert {g["name"] for g in games} == set(GAMES)
    for g in games:
        assert g["rules_url"] == f"http://testserver/rules/{g['name']}/"
        assert client.get(g["rules_url"]).status_code == 200

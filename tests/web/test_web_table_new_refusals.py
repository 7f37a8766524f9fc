"""The new-table form: options the rules refuse read in the reader's language, next to the option (decision 13)."""

import re

import pytest

from games.models import Game

pytestmark = pytest.mark.django_db

ENGLISH = re.compile(r"[A-Za-z]+[,;:]? [A-Za-z]+ [A-Za-z]+")


def post(**changes):
    data = {"game": "topology", "players": "2", "pace": "correspondence", "days": "3", "live_seconds": "60"}
    data.update(changes)
    return data


# One refusal per game the form lets through to the rules: (form data, the field it goes to, es words, zh words).
REFUSALS = [
    (
        post(players="3", opt__topology__advanced="on"),
        "opt__topology__advanced",
        "La variante avanzada de Topology es solo para dos jugadores, no 3.",
        "Topology 的進階變體只限兩人，不是 3 人。",
    ),
    (
        post(game="toppo", players="9", opt__toppo__hands="3"),
        "players",
        "Toppo se juega de 2 a 8 jugadores, no 9.",
        "Toppo 的玩家人數是 2 到 8 人，不是 9 人。",
    ),
    (
        post(
            game="topoum",
            players="3",
            opt__topoum__deck="preset",
            opt__topoum__preset="duel",
            opt__topoum__farmer="random",
            opt__topoum__radius="6",
            opt__topoum__line_values="-2, -1, 0, 1, 2",
        ),
        "opt__topoum__preset",
        "El mazo Duelo es para 2 jugadores; elige otro mazo para 3 jugadores.",
        "「決鬥」牌組只適用於 2 人；3 人請選擇其他牌組。",
    ),
]


@pytest.mark.parametrize("data,field,spanish,chinese", REFUSALS)
def test_a_refused_option_reads_in_spanish_and_chinese_next_to_its_field(owner_client, data, field, spanish, chinese):
    for language, words in (("es", spanish), ("zh-hant", chinese)):
        reply = owner_client.post("/tables/new/", data, HTTP_ACCEPT_LANGUAGE=language)
        assert reply.status_code == 400
        assert reply.context["form"].errors[field] == [words]
        assert words in reply.content.decode()
    assert not ENGLISH.search(chinese)
    assert not Game.objects.exists()


def test_a_tournament_whose_options_the_rules_refuse_reads_in_chinese_next_to_the_option(owner_client):
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.models import Tournament

    start = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form = {
        "name": "Club night",
        "game": "topology",
        "players": 3,
        "days": 2,
        "time_bank_days": 0,
        "starts_at": start,
        "min_entrants": 3,
        "max_entrants": 6,
        "opt__topology__advanced": "on",
    }
    reply = owner_client.post("/tournaments/new/", form, HTTP_ACCEPT_LANGUAGE="zh-hant")
    assert reply.status_code == 400
    assert reply.context["form"].errors["opt__topology__advanced"] == ["Topology 的進階變體只限兩人，不是 3 人。"]
    assert not Tournament.objects.exists()

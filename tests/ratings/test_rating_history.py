"""A player's page and her API answer show each rating with its history (ruling S5), drawn as a chart."""

from __future__ import annotations

import re

import pytest
from rest_framework.test import APIClient

from ratings.models import RatingChange
from tests.ratings.helpers import people, played

pytestmark = pytest.mark.django_db


def test_her_page_and_api_show_each_rating_after_every_rated_game(client):
    ana, bruno = people("ana", "bruno")
    for _ in range(3):
        played([ana, bruno])
    changes = list(RatingChange.objects.filter(user=ana, key="topology").order_by("id"))
    assert len(changes) == 3

    answer = APIClient().get("/api/players/ana/").json()
    (topology,) = answer["ratings"]
    assert topology["key"] == "topology" and topology["games"] == 3 and topology["provisional"] is True
    assert topology["start"] == changes[0].value_before
    assert [p["rating"] for p in topology["history"]] == [c.value_after for c in changes]
    assert topology["value"] == changes[-1].value_after

    html = client.get("/accounts/players/ana/").content.decode()
    figure = re.search(r'<figure class="score-chart rating-history" data-key="topology">(.*?)</figure>', html, re.S)
    assert figure, "no rating chart on her page"
    points = re.search(r'<polyline[^>]*points="([^"]+)"', figure.group(1)).group(1).split()
    assert len(points) == 4  # her start, then after each of the three games
    assert f"{changes[-1].value_after}?" in figure.group(1)  # the value now, marked provisional


def test_a_player_without_rated_games_has_no_chart_and_an_empty_list(client):
    people("carla")
    assert APIClient().get("/api/players/carla/").json()["ratings"] == []
    assert "rating-history" not in client.get("/accounts/players/carla/").content.decode()

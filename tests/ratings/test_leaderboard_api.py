"""The leaderboards in the API and the pages: best first, paged by cursors that stay exact through ties."""

from __future__ import annotations

import random

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from ratings.models import Rating
from ratings.system import PROVISIONAL_GAMES

pytestmark = pytest.mark.django_db


def seed_board(count: int, key: str = "topology", seed: int = 3) -> list[tuple[int, int]]:
    """`count` rated players with random ratings, many of them tied; their (value, user id), best first."""
    rng = random.Random(seed)
    users = User.objects.bulk_create([User(username=f"p{i:03d}", email=f"p{i}@example.com") for i in range(count)])
    now = timezone.now()
    Rating.objects.bulk_create(
        [
            Rating(
                user=u,
                key=key,
                mu=25,
                sigma=8,
                value=rng.choice(range(1400, 1420)),
                games=rng.randint(1, 9),
                updated_at=now,
            )
            for u in users
        ]
    )
    rows = Rating.objects.filter(key=key).values_list("value", "user_id")
    return sorted(rows, key=lambda r: (-r[0], r[1]))


def names(ids) -> list[str]:
    by_id = dict(User.objects.values_list("id", "username"))
    return [by_id[i] for i in ids]


def test_following_next_walks_the_whole_board_once_in_order_and_previous_walks_back():
    expected = names([u for _, u in seed_board(23)])
    api = APIClient()
    url, pages, seen, ranks = "/api/leaderboards/topology/?limit=5", [], [], []
    while url:
        reply = api.get(url)
        assert reply.status_code == 200, reply.content
        body = reply.json()
        pages.append(body)
        seen += [r["player"] for r in body["results"]]
        ranks += [r["rank"] for r in body["results"]]
        url = body["next"]
    assert seen == expected and ranks == list(range(1, 24))
    assert [len(p["results"]) for p in pages] == [5, 5, 5, 5, 3]
    assert pages[0]["previous"] is None and pages[-1]["next"] is None

    # Back up from the last page: the same pages, the same places.
    url, back = pages[-1]["previous"], []
    while url:
        body = api.get(url).json()
        back.insert(0, body)
        url = body["previous"]
    assert [[r["player"] for r in p["results"]] for p in back] == [
        [r["player"] for r in p["results"]] for p in pages[:-1]
    ]
    assert [r["rank"] for r in back[0]["results"]] == [1, 2, 3, 4, 5]


def test_a_row_says_its_rating_and_whether_it_is_provisional():
    seed_board(3)
    row = APIClient().get("/api/leaderboards/topology/").json()["results"][0]
    rating = Rating.objects.get(user__username=row["player"])
    assert row["rating"] == rating.value and row["games"] == rating.games
    assert row["provisional"] is (rating.games < PROVISIONAL_GAMES)


def test_only_the_keys_own_players_are_listed_and_every_key_has_a_board():
    seed_board(4, key="toppo-live")
    boards = APIClient().get("/api/leaderboards/").json()
    assert [b["key"] for b in boards] == ["topology", "topoum", "toppo-correspondence", "toppo-live"]
    assert APIClient().get("/api/leaderboards/topology/").json()["results"] == []
    assert len(APIClient().get(boards[3]["url"]).json()["results"]) == 4


def test_bad_cursors_limits_and_boards_are_refused_with_a_message():
    seed_board(2)
    api = APIClient()
    bad = api.get("/api/leaderboards/topology/?after=nonsense")
    assert bad.status_code == 400 and "after" in bad.json()["detail"]
    too_many = api.get("/api/leaderboards/topology/?limit=1000")
    assert too_many.status_code == 400 and "100" in too_many.json()["detail"]
    missing = api.get("/api/leaderboards/chess/")
    assert missing.status_code == 404 and "topology" in missing.json()["detail"]


def test_a_players_ratings_are_listed_by_key():
    seed_board(2)
    Rating.objects.create(
        user=User.objects.get(username="p000"),
        key="toppo-live",
        mu=30,
        sigma=5,
        value=1700,
        games=7,
        updated_at=timezone.now(),
    )
    body = APIClient().get("/api/players/P000/ratings/").json()
    assert body["player"] == "p000"
    assert [(r["key"], r["provisional"]) for r in body["results"]][1] == ("toppo-live", False)
    assert APIClient().get("/api/players/nobody/ratings/").status_code == 404


def test_the_schema_documents_the_leaderboards():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    board = schema["paths"]["/api/leaderboards/{key}/"]["get"]
    assert {p["name"] for p in board["parameters"]} >= {"after", "before", "limit", "key"}
    assert {"200", "400", "404"} <= set(board["responses"])
    assert "/api/players/{username}/ratings/" in schema["paths"]
    create = schema["components"]["schemas"]["TableCreateInRequest"]["properties"]
    assert create["rated"]["default"] is True


def test_the_leaderboard_page_pages_through_with_links(client):
    expected = names([u for _, u in seed_board(60)])
    first = client.get("/leaderboards/topology/")
    html = first.content.decode()
    assert first.status_code == 200 and expected[0] in html and expected[50] not in html
    link = first.context["page"].next
    second = client.get(f"/leaderboards/topology/?after={link}")
    rows = second.context["page"].rows
    assert [r["player"] for r in rows] == expected[50:] and rows[0]["rank"] == 51
    assert client.get("/leaderboards/").status_code == 302
    assert client.get("/leaderboards/chess/").status_code == 404
    assert client.get("/leaderboards/topology/?after=junk").status_code == 200  # the top, not an error

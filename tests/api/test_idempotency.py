"""Idempotency-Key: a retry returns the first answer and applies nothing twice."""

import pytest

from games.models import Action, Game
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def test_it_replays_the_first_answer_for_a_retried_move(owner, member, owner_api, member_api):
    game = started_topology(owner, member)
    seat = game.to_act[0]
    client = owner_api if seat == 0 else member_api
    action = client.get(f"/api/tables/{game.pk}/legal-actions/").data["actions"][0]
    body = {"action": action, "expected_version": 0}
    first = client.post(f"/api/tables/{game.pk}/actions/", body, format="json", HTTP_IDEMPOTENCY_KEY="move-1")
    retry = client.post(f"/api/tables/{game.pk}/actions/", body, format="json", HTTP_IDEMPOTENCY_KEY="move-1")
    assert first.status_code == retry.status_code == 200
    assert retry.data == first.data
    assert retry["Idempotent-Replayed"] == "true"
    assert Action.objects.filter(game=game).count() == 1
    assert Game.objects.get(pk=game.pk).version == 1


def test_it_answers_422_when_a_key_comes_back_with_another_body(owner, member, owner_api, member_api):
    game = started_topology(owner, member)
    client = owner_api if game.to_act[0] == 0 else member_api
    actions = client.get(f"/api/tables/{game.pk}/legal-actions/").data["actions"]
    client.post(
        f"/api/tables/{game.pk}/actions/",
        {"action": actions[0], "expected_version": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    other = client.post(
        f"/api/tables/{game.pk}/actions/",
        {"action": actions[1], "expected_version": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k",
    )
    assert other.status_code == 422
    assert "different request" in other.data["detail"]
    assert Action.objects.filter(game=game).count() == 1


def test_it_keeps_keys_apart_per_user(owner, member, owner_api, member_api):
    one = owner_api.post("/api/tables/", {"game": "topology", "players": 2}, format="json", HTTP_IDEMPOTENCY_KEY="t")
    two = member_api.post("/api/tables/", {"game": "topology", "players": 2}, format="json", HTTP_IDEMPOTENCY_KEY="t")
    again = owner_api.post("/api/tables/", {"game": "topology", "players": 2}, format="json", HTTP_IDEMPOTENCY_KEY="t")
    assert one.status_code == two.status_code == 201
    assert one.data["id"] != two.data["id"]
    assert again.data["id"] == one.data["id"]
    assert Game.objects.count() == 2


def test_a_retried_error_stays_the_same_error(owner, member, owner_api, member_api):
    game = started_topology(owner, member)
    client = owner_api if game.to_act[0] == 0 else member_api
    bad = {
        "action": {"type": "place", "tile": 0, "cells": [[40, 40], [41, 40]], "orientation": 0},
        "expected_version": 0,
    }
    first = client.post(f"/api/tables/{game.pk}/actions/", bad, format="json", HTTP_IDEMPOTENCY_KEY="bad")
    retry = client.post(f"/api/tables/{game.pk}/actions/", bad, format="json", HTTP_IDEMPOTENCY_KEY="bad")
    assert first.status_code == retry.status_code == 400
    assert first.data == retry.data


def test_answers_are_kept_for_the_retention_then_purged_by_beat(owner, owner_api, settings):
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks
    from games.models import IdempotentRequest

    assert settings.TOPOS_IDEMPOTENCY_RETENTION_HOURS == 24
    body = {"game": "topology", "players": 2}
    old = owner_api.post("/api/tables/", body, format="json", HTTP_IDEMPOTENCY_KEY="yesterday")
    fresh = owner_api.post("/api/tables/", body, format="json", HTTP_IDEMPOTENCY_KEY="today")
    IdempotentRequest.objects.filter(key="yesterday").update(created_at=timezone.now() - timedelta(hours=24, minutes=1))
    IdempotentRequest.objects.filter(key="today").update(created_at=timezone.now() - timedelta(hours=23, minutes=59))

    assert tasks.idempotency_purge() == 1  # what beat runs every hour
    assert list(IdempotentRequest.objects.values_list("key", flat=True)) == ["today"]
    # The kept answer still replays; the purged key is a new request now.
    again = owner_api.post("/api/tables/", body, format="json", HTTP_IDEMPOTENCY_KEY="today")
    assert again["Idempotent-Replayed"] == "true" and again.data["id"] == fresh.data["id"]
    anew = owner_api.post("/api/tables/", body, format="json", HTTP_IDEMPOTENCY_KEY="yesterday")
    assert anew.status_code == 201 and anew.data["id"] != old.data["id"] and "Idempotent-Replayed" not in anew
    assert Game.objects.count() == 3

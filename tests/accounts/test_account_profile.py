"""The profile page: my games with their results, and my API tokens (never their keys)."""

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.services import api_token_create
from tests.accounts.conftest import finish
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def test_anonymous_is_sent_to_login(client):
    r = client.get(reverse("profile"))
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))


def test_it_lists_my_running_and_finished_games_with_results(client, owner, member):
    running = started_topology(owner, member)
    done = finish(started_topology(owner, member), {0: (2, 31), 1: (1, 44.5)})
    client.force_login(owner)
    r = client.get(reverse("profile"))
    assert r.status_code == 200
    current_ids = [g["id"] for g in r.context["current_games"]]
    finished = r.context["finished_games"]
    assert current_ids == [running.pk]
    assert [g["id"] for g in finished] == [done.pk]
    assert [(s["player"], s["rank"], s["score"]) for s in finished[0]["seats"]] == [("ana", 2, 31), ("bruno", 1, 44.5)]
    page = r.content.decode()
    assert reverse("table", args=[running.pk]) in page and reverse("table", args=[done.pk]) in page
    assert "44.5" in page


def test_it_shows_no_one_elses_games(client, owner, member, outsider):
    started_topology(owner, member)
    client.force_login(outsider)
    r = client.get(reverse("profile"))
    assert r.context["current_games"] == [] and r.context["finished_games"] == []


def test_it_lists_my_active_tokens_by_name_and_prefix_only(client, owner, member):
    mine, key = api_token_create(user=owner, name="my bot")
    gone, _ = api_token_create(user=owner, name="old script")
    theirs, _ = api_token_create(user=member, name="bruno's bot")
    gone.revoked_at = timezone.now()
    gone.save()
    client.force_login(owner)
    page = client.get(reverse("profile")).content.decode()
    assert "my bot" in page and mine.prefix in page
    assert key not in page
    assert "old script" not in page and "bruno&#x27;s bot" not in page and "bruno's bot" not in page


def test_it_keeps_a_block_for_extra_sections(client, owner):
    """Other parts of the site extend the profile through {% block profile_extra %}."""
    from django.template.loader import get_template

    source = get_template("accounts/profile.html").template.source
    assert "{% block profile_extra %}" in source

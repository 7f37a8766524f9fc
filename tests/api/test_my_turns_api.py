"""Decision 29, point 2: her turn queue (GET /api/me/turns/ and /turns/), ordered by deadline, each table labelled
forced, quick or deep from her seat's view (games.selectors.turn_labels), with the time left; the label in her turn's
notification and email, in three languages."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from accounts.personal import her_words
from games import tasks
from games.selectors.turn_labels import DEEP, DEEP_CHOICES, FORCED, QUICK, turn_label
from notifications.emails import notification_email
from notifications.models import Notification
from notifications.texts import notification_words
from tests.games.tables import topology_table, topoum_table

pytestmark = pytest.mark.django_db

DAY = 86400


def test_the_queue_lists_the_tables_waiting_for_her_soonest_deadline_first_each_labelled(owner, member, owner_api):
    later = topology_table(owner, member, turn_seconds=3 * DAY)
    sooner = topoum_table(owner, member, turn_seconds=2 * DAY)
    theirs = topology_table(member, owner)  # member moves first there: not waiting for her
    answer = owner_api.get("/api/me/turns/")
    assert answer.status_code == 200
    rows = answer.json()["results"]
    assert [r["table"] for r in rows] == [sooner.pk, later.pk]
    assert theirs.pk not in [r["table"] for r in rows]
    first, second = rows
    assert first["label"] == FORCED and first["choices"] == 1 and first["label_words"] == "forced"
    assert second["label"] in (QUICK, DEEP) and second["choices"] > 1
    assert 0 < first["seconds_left"] <= 2 * DAY and first["seconds_left"] < second["seconds_left"]
    assert first["version"] == sooner.version and first["url"] == f"/tables/{sooner.pk}/"
    # A page at a time, by cursor, in the same order.
    page_one = owner_api.get("/api/me/turns/", {"page_size": 1}).json()
    assert [r["table"] for r in page_one["results"]] == [sooner.pk] and page_one["previous"] is None
    page_two = owner_api.get(page_one["next"]).json()
    assert [r["table"] for r in page_two["results"]] == [later.pk] and page_two["next"] is None
    assert owner_api.get("/api/me/turns/", {"cursor": "nonsense"}).status_code == 400

    page = Client()
    page.force_login(owner)
    text = page.get("/turns/").content.decode()
    assert text.index(f"#{sooner.pk}") < text.index(f"#{later.pk}")
    assert "label-forced" in text


def test_the_label_follows_the_documented_thresholds(owner, member):
    game = topology_table(owner, member)
    label = turn_label(game, 0)
    # Topology's first decision: a tile to place, on many cells.
    assert label["choices"] > 1
    assert label["label"] == (DEEP if label["choices"] > DEEP_CHOICES or label["spread"] >= 0.25 else QUICK)


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", "Topoum #{pk}: forced, 2 days left"),
        ("es", "#{pk}: forzada, quedan 2 días"),
        ("zh-hant", "#{pk}：強制，剩餘 2 天"),
    ],
)
def test_her_turn_is_told_with_its_label_and_time_left(owner, member, language, words):
    owner.language = language
    owner.save(update_fields=["language"])
    game = topoum_table(owner, member, turn_seconds=3 * DAY)
    tasks.game_effects.run(game.pk)
    note = Notification.objects.get(recipient=owner, kind="your_turn", game=game)
    assert note.params["label"] == FORCED
    expected = words.format(pk=game.pk)
    with her_words(owner):
        assert expected in notification_words(note)
    assert expected in notification_email(note).body  # the email opens with it
    translation.deactivate()

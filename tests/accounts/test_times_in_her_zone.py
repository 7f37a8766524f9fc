"""Every time the site shows a person is in her time zone, named by its IANA name (accounts.personal.local_time):
"2026-11-28 14:15 (Asia/Taipei)" on her pages, in her emails and in the API's texts, never an abbreviation such
as "CST" (China's, Cuba's or the American Central one)."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone, translation
from rest_framework.test import APIClient

from accounts.personal import local_time
from games.models import Seat
from games.templatetags.topos import local_time as local_time_filter
from notifications.events import reminders_send
from notifications.models import Notification
from tests.conftest import api_client_for
from tests.games.tables import topology_table
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

TAIPEI = zoneinfo.ZoneInfo("Asia/Taipei")


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://topos.example"


def in_taipei(moment) -> str:
    return f"{moment.astimezone(TAIPEI):%Y-%m-%d %H:%M} (Asia/Taipei)"


def test_one_format_in_every_language_named_by_the_zone_not_an_abbreviation():
    moment = datetime(2026, 11, 28, 6, 15, tzinfo=UTC)
    for language in ("en", "es", "zh-hant"):
        with translation.override(language), timezone.override(TAIPEI):
            assert local_time(moment) == "2026-11-28 14:15 (Asia/Taipei)"
            assert local_time_filter(moment) == local_time_filter(moment.isoformat()) == local_time(moment)
    with timezone.override(zoneinfo.ZoneInfo("America/Chicago")):
        assert local_time(moment) == "2026-11-28 00:15 (America/Chicago)"  # not "CST"
    assert local_time(None) == local_time_filter(None) == ""


def _deadline_near(owner, member):
    """A deadline reminder for `member` (Taipei), its deadline half an hour away."""
    member.time_zone = "Asia/Taipei"
    member.save()
    game = topology_table(owner, member)
    seat = Seat.objects.get(game=game, user=member)
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() + timedelta(minutes=30))
    Seat.objects.filter(game=game, user=owner).update(deadline=None)
    game.to_act = [seat.index]
    game.save(update_fields=["to_act"])
    return game, Seat.objects.get(pk=seat.pk)


def test_the_api_words_her_notifications_in_her_zone_as_her_page_and_her_email_do(
    owner, member, celery_eager, django_capture_on_commit_callbacks
):
    game, seat = _deadline_near(owner, member)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert reminders_send() == 1
    expected = in_taipei(seat.deadline)
    # The API with her token: the token's person is known only after the middleware, yet the text is in Taipei.
    listed = api_client_for(member).get("/api/notifications/").json()["results"]
    deadline_note = next(n for n in listed if n["kind"] == "deadline")
    assert expected in deadline_note["text"] and "(UTC)" not in deadline_note["text"]
    # Her page and her email say the same.
    client = Client()
    client.force_login(member)
    page = client.get("/notifications/").content.decode()
    assert expected in page
    note = Notification.objects.get(recipient=member, kind="deadline")
    assert in_taipei(note.created_at) in page  # when it happened, in the same words
    letter = next(m for m in mail.outbox if m.to == [member.email])
    assert expected in letter.body


def test_a_session_in_the_api_and_a_token_answer_in_the_same_zone(owner, member):
    member.time_zone = "Asia/Taipei"
    member.save()
    session = APIClient()
    session.force_login(member)
    tokened = api_client_for(member)
    starts = timezone.now() + timedelta(days=2)
    tournament = tournament_services.tournament_create(
        user=owner, name="Taipei cup", kind="topology", players=2, options={}, starts_at=starts
    )
    for client in (session, tokened):
        data = client.get(f"/api/tournaments/{tournament.pk}/").json()
        assert data["starts_at_text"] == in_taipei(starts)
        assert data["starts_at"].endswith("+08:00")


@pytest.mark.parametrize("language", ["en", "es", "zh-hant"])
def test_a_tournaments_start_is_shown_with_its_zone_on_the_pages_and_the_form(owner, member, language):
    member.time_zone, member.language = "Asia/Taipei", language
    member.save()
    starts = timezone.now() + timedelta(days=3)
    tournament = tournament_services.tournament_create(
        user=owner, name="Zone cup", kind="topology", players=2, options={}, starts_at=starts
    )
    client = Client()
    client.force_login(member)
    assert in_taipei(starts) in client.get("/tournaments/").content.decode()
    assert in_taipei(starts) in client.get(f"/tournaments/{tournament.pk}/").content.decode()
    form = client.get("/tournaments/new/").content.decode()
    assert "Asia/Taipei" in form
    if language != "en":
        assert "In your time zone" not in form  # the help is translated, the zone named in it


def test_a_visitor_reads_the_zone_her_browser_reported(owner):
    starts = timezone.now() + timedelta(days=3)
    tournament = tournament_services.tournament_create(
        user=owner, name="Cookie cup", kind="topology", players=2, options={}, starts_at=starts
    )
    browser = Client()
    browser.cookies["tz"] = "Asia/Taipei"  # what static/js/site.js writes
    assert in_taipei(starts) in browser.get(f"/tournaments/{tournament.pk}/").content.decode()

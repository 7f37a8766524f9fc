"""Each person's language and time zone (accounts.personal): taken from her browser at sign-up, changed on
her profile or with the language menu, and used by her pages, her notifications and her emails."""

from __future__ import annotations

import re
import zoneinfo
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone, translation

from accounts.models import User
from accounts.personal import her_words
from games.models import Seat
from notifications.events import game_effects_dispatch, reminders_send
from notifications.models import Notification
from notifications.texts import notification_words
from tests.games.tables import topology_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://topos.example"


def spanish(text: str) -> str:
    with translation.override("es"):
        return translation.gettext(text)


def sign_up(client: Client, name: str) -> User:
    reply = client.post(
        "/accounts/signup/",
        {
            "username": name,
            "email": f"{name}@example.com",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        },
    )
    assert reply.status_code == 302
    return User.objects.get(username=name)


def test_sign_up_keeps_the_browsers_language_and_time_zone():
    browser = Client(HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    browser.cookies["tz"] = "America/Mexico_City"  # what static/js/site.js writes
    lucia = sign_up(browser, "lucia")
    assert (lucia.language, lucia.time_zone) == ("es", "America/Mexico_City")


def test_an_unknown_zone_or_language_from_the_browser_falls_back_to_the_sites():
    browser = Client(HTTP_ACCEPT_LANGUAGE="de-DE")
    browser.cookies["tz"] = "Mars/Olympus_Mons"
    hans = sign_up(browser, "hans")
    assert (hans.language, hans.time_zone) in {("en", "UTC"), ("", "UTC")}


def test_her_language_wins_over_what_the_browser_asks(owner):
    owner.language = "zh-hant"
    owner.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(owner)
    page = client.get("/accounts/profile/")
    assert page["Content-Language"] == "zh-hant"
    assert "語言和時區" in page.content.decode()
    visitor = Client(HTTP_ACCEPT_LANGUAGE="en").get("/")
    assert visitor["Content-Language"] == "en"


def test_the_language_menu_is_kept_on_her_account(owner):
    client = Client()
    client.force_login(owner)
    assert client.post("/i18n/setlang/", {"language": "es", "next": "/"}).status_code == 302
    owner.refresh_from_db()
    assert owner.language == "es"
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "es"


def test_the_profile_form_changes_both_and_refuses_a_zone_it_does_not_offer(owner):
    client = Client()
    client.force_login(owner)
    bad = client.post("/accounts/profile/language/", {"language": "es", "time_zone": "Europe/Atlantis"})
    assert bad.status_code == 400 and "Europe/Atlantis" in bad.content.decode()
    owner.refresh_from_db()
    assert (owner.language, owner.time_zone) == ("", "UTC")  # nothing changed
    good = client.post("/accounts/profile/language/", {"language": "es", "time_zone": "Asia/Taipei"}, follow=True)
    owner.refresh_from_db()
    assert (owner.language, owner.time_zone) == ("es", "Asia/Taipei")
    assert "Asia/Taipei" in good.content.decode() and good["Content-Language"] == "es"


def test_a_deadline_on_the_table_is_shown_in_her_time_zone(owner, member):
    owner.time_zone = "Asia/Taipei"
    owner.save()
    game = topology_table(owner, member)
    deadline = Seat.objects.get(game=game, user=owner).deadline
    client = Client()
    client.force_login(owner)
    html = client.get(f"/tables/{game.pk}/").content.decode()
    shown = re.search(r'<time datetime="([^"]+)">', html).group(1)
    assert shown.endswith("+08:00")  # Taipei, not the server's UTC
    assert shown == timezone.localtime(deadline, timezone.get_fixed_timezone(480)).isoformat()
    # Named by the zone, as in her emails and the API (accounts.personal.local_time); never "CST", which is also
    # Cuba's and the American Central time.
    taipei = timezone.localtime(deadline, zoneinfo.ZoneInfo("Asia/Taipei"))
    assert f"{taipei:%Y-%m-%d %H:%M} (Asia/Taipei)" in html
    assert not re.search(r"\bCST\b", html)


def test_her_notifications_and_emails_speak_her_language_and_time_zone(
    owner, member, celery_eager, django_capture_on_commit_callbacks
):
    member.language, member.time_zone = "es", "Europe/Madrid"
    member.save()
    game = topology_table(owner, member)
    game_effects_dispatch(game_id=game.pk)
    started = Notification.objects.get(recipient=member, kind="started")
    with her_words(member):  # as her page, the API and her emails word it (decision 13)
        assert notification_words(started).startswith("La mesa")  # the table started, in Spanish
    seat = Seat.objects.get(game=game, user=member)
    # Her deadline is near: the reminder names the time in Madrid, and her email is in Spanish.
    Seat.objects.filter(pk=seat.pk).update(deadline=timezone.now() + timedelta(minutes=30))
    Seat.objects.filter(game=game, user=owner).update(deadline=None)
    game.to_act = [seat.index]
    game.save(update_fields=["to_act"])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):  # the email task is sent once the reminder commits
        assert reminders_send() == 1
    note = Notification.objects.get(recipient=member, kind="deadline")
    seat.refresh_from_db()
    madrid = timezone.localtime(seat.deadline, timezone=zoneinfo.ZoneInfo("Europe/Madrid"))
    with her_words(member):
        assert f"{madrid:%Y-%m-%d %H:%M} (Europe/Madrid)" in notification_words(note)
    letters = [m for m in mail.outbox if m.to == [member.email]]
    assert len(letters) == 1
    assert spanish("Your deadline at %(game)s is near") != "Your deadline at %(game)s is near"
    assert letters[0].subject == "[Topos] " + spanish("Your deadline at %(game)s is near") % {
        "game": f"Topology #{game.pk}"
    }
    assert f"{madrid:%Y-%m-%d %H:%M} (Europe/Madrid)" in letters[0].body

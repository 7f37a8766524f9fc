"""Vacation and time banks in the pages (ruling S4): started and ended from the profile, with or without htmx;
shown to her opponents next to her name; a time bank chosen on the new-table form."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from games.models import Game, Vacation
from games.views.common import stamp
from tests.games.tables import topology_table
from tests.web.conftest import HX


def stamp_of(game) -> str:
    return stamp(Game.objects.get(pk=game.pk))


pytestmark = pytest.mark.django_db


def test_she_starts_and_ends_her_vacation_on_her_profile_in_place(owner_client, owner):
    page = owner_client.get(reverse("profile")).content.decode()
    assert 'id="vacation"' in page and "0.0 days used, 21.0 days left" in page
    assert reverse("vacation_start") in page and reverse("vacation_end") not in page

    reply = owner_client.post(reverse("vacation_start"), {"days": "3"}, **HX)
    fragment = reply.content.decode()
    assert reply.status_code == 200 and fragment.lstrip().startswith('<section id="vacation"')
    assert "You are on vacation until" in fragment and reverse("vacation_end") in fragment
    assert Vacation.objects.get(user=owner).ended_at is None

    reply = owner_client.post(reverse("vacation_end"), **HX)
    assert "Welcome back!" in reply.content.decode() and reverse("vacation_start") in reply.content.decode()
    assert Vacation.objects.get(user=owner).ended_at is not None


def test_without_javascript_a_refusal_is_shown_on_the_profile_and_changes_nothing(owner_client, owner):
    reply = owner_client.post(reverse("vacation_start"), {"days": "40"})
    assert reply.status_code == 400
    assert "vacation days left" in reply.content.decode()
    assert not Vacation.objects.exists()
    reply = owner_client.post(reverse("vacation_start"), {"days": ""})
    assert reply.status_code == 302 and reply["Location"].endswith("#vacation")
    assert owner_client.post(reverse("vacation_start"), {}).status_code == 409  # already away
    assert owner_client.post(reverse("vacation_end")).status_code == 302


def test_her_opponent_sees_she_is_away_next_to_her_name(owner_client, member_client, owner, member):
    game = topology_table(owner, member)
    stamp = stamp_of(game)
    owner_client.post(reverse("vacation_start"), {"days": "5"})
    # A page left open redraws at its next poll.
    polled = member_client.get(reverse("table_poll", args=[game.pk]), {"stamp": stamp}, **HX)
    assert polled.status_code == 200 and "on vacation until" in polled.content.decode()
    page = member_client.get(reverse("table", args=[game.pk])).content.decode()
    assert "on vacation until" in page and "clock stopped" in page
    assert page.count("on vacation until") == 1  # hers, not his
    owner_client.post(reverse("vacation_end"))
    assert "on vacation until" not in member_client.get(reverse("table", args=[game.pk])).content.decode()


def test_the_vacation_section_and_the_table_notes_are_translated(owner_client, member_client, owner, member):
    game = topology_table(owner, member, time_bank_days=2)
    owner_client.post(reverse("vacation_start"), {"days": "5"})
    for language, words in (
        ("es", ("Vacaciones", "de vacaciones hasta", "reserva de tiempo")),
        ("zh-hant", ("休假", "休假至", "時間儲備")),
    ):
        with translation.override(language):
            profile = owner_client.get(reverse("profile"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
            table = member_client.get(reverse("table", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert words[0] in profile, language
        assert words[1] in table and words[2] in table, language


def test_the_new_table_form_offers_a_time_bank_and_refuses_one_that_cannot_be(owner_client, owner):
    html = owner_client.get("/tables/new/").content.decode()
    assert 'name="time_bank_days"' in html
    data = {"game": "topology", "players": "2", "pace": "correspondence", "days": "3", "live_seconds": "60"}
    reply = owner_client.post("/tables/new/", {**data, "time_bank_days": "45"})
    assert reply.status_code == 400 and "A time bank is a whole number of days" in reply.content.decode()
    assert not Game.objects.exists()
    reply = owner_client.post("/tables/new/", {**data, "time_bank_days": "4"})
    assert reply.status_code == 302
    game = Game.objects.get()
    assert game.time_bank_days == 4
    assert "time bank of 4 days per seat" in owner_client.get(reverse("table", args=[game.pk])).content.decode()

"""A reported chat message lands in the Django admin, where a moderator deletes it or resolves the report."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import user_create
from chat.models import ChatMessage, ChatReport
from chat.services import chat_post, chat_report
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(db):
    user = user_create(username="mod", email="mod@example.com", password="a-long-test-password")
    type(user).objects.filter(pk=user.pk).update(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def reported(owner, member):
    game = started_topology(owner, member)
    message = chat_post(user=member, game_id=game.pk, body="<b>nasty</b> words")
    return chat_report(user=owner, game_id=game.pk, message_id=message.pk, reason="abuse", note="please look")


def test_the_report_shows_in_the_admin_with_the_message_its_author_and_the_table(moderator, reported):
    page = moderator.get("/admin/chat/chatreport/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "&lt;b&gt;nasty&lt;/b&gt; words" in html and "<b>nasty</b>" not in html
    assert "bruno" in html and "ana" in html and f'href="/tables/{reported.message.game_id}/"' in html
    detail = moderator.get(f"/admin/chat/chatreport/{reported.pk}/change/")
    assert detail.status_code == 200 and "please look" in detail.content.decode()
    assert moderator.get("/admin/chat/chatmessage/").status_code == 200


def test_the_admin_deletes_the_message_and_resolves_the_report(moderator, reported):
    answer = moderator.post("/admin/chat/chatreport/", {"action": "delete_messages", "_selected_action": [reported.pk]})
    assert answer.status_code == 302
    report = ChatReport.objects.get(pk=reported.pk)
    assert report.resolved and report.resolved_by.username == "mod" and report.resolved_at is not None
    assert ChatMessage.objects.get(pk=reported.message_id).deleted_at is not None


def test_resolving_keeps_the_message(moderator, reported):
    moderator.post("/admin/chat/chatreport/", {"action": "resolve", "_selected_action": [reported.pk]})
    assert ChatReport.objects.get(pk=reported.pk).resolved
    assert ChatMessage.objects.get(pk=reported.message_id).deleted_at is None


def test_only_staff_reach_it(owner, reported):
    client = Client()
    client.force_login(owner)
    assert client.get("/admin/chat/chatreport/").status_code == 302  # to the admin's login

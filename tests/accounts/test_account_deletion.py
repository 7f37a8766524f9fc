"""Ruling S8: she deletes her account herself (confirmed by her password): her seats keep their place under a
neutral name, her ratings leave the leaderboards, everything personal is erased, and her finished games still
re-run to their published results (`python -m engine.verify`, ruling G0.2).

Every model linked to the user is covered by accounts.deletion without a list kept by hand: its rows are erased
unless the link is in the short allow-list `KEPT`.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from accounts.deletion import KEPT, user_links
from accounts.models import ApiToken
from accounts.services import user_create
from chat.models import ChatMessage
from chat.services import chat_post
from games import services
from games.models import Action, Game, Seat
from games.services.blocks import player_block
from notifications.models import Notification, NotificationDelivery
from ratings.models import Rating
from tests.conftest import api_client_for
from tests.games.tables import everyone_played, open_table, topology_table
from tests.games.test_export_verify import play_to_the_end, run_verify

pytestmark = pytest.mark.django_db

NAME, EMAIL, PASSWORD = "zoltanquixby", "zoltan.quixby@example.org", "a-long-test-password"


@pytest.fixture
def zoltan(db):
    return user_create(username=NAME, email=EMAIL, password=PASSWORD)


@pytest.fixture
def her_world(zoltan, member, outsider):
    """A finished rated game with member (chat in it, her rating), a running game with outsider, an open table of
    hers, a block, a token, notifications to her and about her."""
    finished = play_to_the_end(open_table("topology", zoltan, member), zoltan, member)
    assert finished.status == Game.Status.FINISHED and finished.rated
    chat_post(user=zoltan, game_id=finished.pk, body=f"good game, I am {NAME}")
    running = everyone_played(topology_table(zoltan, outsider))
    opened = services.game_create(user=zoltan, kind="topology", players=3, options={}, pace="correspondence")
    player_block(user=zoltan, username=outsider.username)
    Notification.objects.create(
        recipient=member,
        kind="started",
        game=finished,
        params={
            "code": "started",
            "game": {"id": finished.pk, "kind": "topology"},
            "seats": [{"index": 0, "user": NAME}],
        },
    )
    return {"finished": finished, "running": running, "opened": opened}


def _dump() -> str:
    out = io.StringIO()
    call_command("dumpdata", stdout=out, exclude=["contenttypes", "auth.permission"])
    return out.getvalue()


def test_every_link_to_the_user_is_erased_or_kept_on_purpose():
    labels = {link.label for link in user_links()}
    stale = sorted(set(KEPT) - labels)
    assert not stale, f"KEPT names links that no longer exist: {stale}"
    # A few that must be in each group, whatever other apps add.
    assert {"games.Seat.user", "games.Action.user", "chat.ChatMessage.author"} <= set(KEPT)
    assert {"accounts.ApiToken.user", "notifications.Notification.recipient", "ratings.Rating.user"} <= labels - set(
        KEPT
    )


def test_a_wrong_password_deletes_nothing(zoltan):
    api = api_client_for(zoltan)
    assert api.post("/api/me/delete/", {"password": "not-hers"}, format="json").status_code == 403
    for body in ({}, {"password": ""}, ["x"]):
        answer = api.post("/api/me/delete/", body, format="json")
        assert answer.status_code == 400, body
    page = Client()
    page.force_login(zoltan)
    answer = page.post("/accounts/delete/", {"password": PASSWORD})  # not confirmed
    assert answer.status_code == 400
    zoltan.refresh_from_db()
    assert zoltan.username == NAME and zoltan.deleted_at is None and zoltan.is_active


def test_deleted_her_name_and_email_appear_nowhere_and_her_games_still_verify(
    zoltan, member, outsider, her_world, tmp_path
):
    finished, running, opened = her_world["finished"], her_world["running"], her_world["opened"]
    assert Rating.objects.filter(user=zoltan).exists()
    assert NAME in _dump() and EMAIL in _dump()
    assert Client().get(f"/accounts/players/{NAME}/").status_code == 200
    api = api_client_for(zoltan)

    answer = api.post("/api/me/delete/", {"password": PASSWORD}, format="json")
    assert answer.status_code == 200, answer.content
    neutral = answer.json()["shown_as"]
    assert neutral == f"deleted-{zoltan.pk}"

    # Everything the database holds, every table of every app.
    dump = _dump()
    assert NAME not in dump and EMAIL not in dump and "quixby" not in dump.lower()

    # Her seats keep their place; her log rows stay hers; her chat line stays under the neutral name.
    assert Seat.objects.filter(user=zoltan).count() == 3  # the open table she opened is closed, its seat kept
    assert Action.objects.filter(user=zoltan).exists()
    assert ChatMessage.objects.filter(author=zoltan).count() == 1
    # Ruling S1: she left her running game as by resigning (turn 3 passed: it counts as lost, the bot plays on).
    assert Seat.objects.get(game=running, user=zoltan).abandoned
    assert Game.objects.get(pk=opened.pk).status == Game.Status.ABORTED
    # Her ratings left the leaderboards; her token, notifications and queued emails are gone.
    assert not Rating.objects.filter(user=zoltan).exists()
    assert not ApiToken.objects.filter(user=zoltan).exists()
    assert not Notification.objects.filter(recipient=zoltan).exists()
    assert not NotificationDelivery.objects.filter(recipient=zoltan).exists()
    assert api.get("/api/me/").status_code == 401  # her token stopped working at once

    # What others read: pages, the API, exports, notifications, leaderboards.
    others = Client()
    others.force_login(member)
    member_api = api_client_for(member)
    reads = [
        others.get(f"/tables/{finished.pk}/"),
        others.get(f"/tables/{finished.pk}/replay/"),
        others.get("/notifications/"),
        others.get("/leaderboards/topology/"),
        others.get(f"/accounts/players/{member.username}/"),
        others.get("/accounts/profile/"),
        member_api.get(f"/api/tables/{finished.pk}/"),
        member_api.get(f"/api/tables/{finished.pk}/actions/"),
        member_api.get(f"/api/tables/{finished.pk}/chat/"),
        member_api.get(f"/api/tables/{finished.pk}/export/"),
        member_api.get("/api/notifications/"),
        member_api.get("/api/leaderboards/topology/"),
        member_api.get(f"/api/players/{member.username}/games/"),
        member_api.get(f"/api/tables/{running.pk}/"),
    ]
    for answer in reads:
        assert answer.status_code == 200, (answer.wsgi_request.path, answer.status_code)
        text = answer.content.decode()
        assert NAME not in text and EMAIL not in text, answer.wsgi_request.path
    page = reads[0].content.decode()
    assert f"deleted player {zoltan.pk}" in page
    assert neutral not in json.dumps(member_api.get("/api/leaderboards/topology/").json())
    assert others.get(f"/accounts/players/{NAME}/").status_code == 404
    assert others.get(f"/accounts/players/{neutral}/").status_code == 404
    assert member_api.get(f"/api/players/{neutral}/").status_code == 404

    # Shown in the reader's language.
    spanish = Client(HTTP_ACCEPT_LANGUAGE="es")
    assert f"jugador eliminado {zoltan.pk}" in spanish.get(f"/tables/{finished.pk}/").content.decode()

    # Her finished game re-runs to its published result, her seat under the neutral name.
    export = member_api.get(f"/api/tables/{finished.pk}/export/").json()
    assert export["seats"][0]["player"] == neutral
    verified = run_verify(tmp_path, export)
    assert verified.returncode == 0, verified.stdout + verified.stderr

    # The name can never be taken by a newcomer as a deleted account's.
    signup = Client().post(
        "/accounts/signup/",
        {"username": "deleted-999", "email": "x@example.org", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert signup.status_code == 200 and "taken" in signup.content.decode()


def test_wrong_passwords_at_the_deletion_count_as_failed_logins_and_run_out(zoltan, settings):
    # A stolen token must not let its holder try passwords without end: each wrong one is a failed login.
    most, _window = settings.TOPOS_RATE_LIMITS["login-account"]
    api = api_client_for(zoltan)
    for _attempt in range(most):
        assert api.post("/api/me/delete/", {"password": "not-hers"}, format="json").status_code == 403
    answer = api.post("/api/me/delete/", {"password": PASSWORD}, format="json")  # even the right one, now
    assert answer.status_code == 429
    assert answer.json()["error"] == "rate_limited" and int(answer["Retry-After"]) >= 1
    assert "Too many failed attempts" in answer.json()["detail"]
    page = Client()
    page.force_login(zoltan)
    refused = page.post("/accounts/delete/", {"password": PASSWORD, "confirm": "1"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    zoltan.refresh_from_db()
    assert zoltan.username == NAME and zoltan.deleted_at is None and zoltan.is_active
    # the login form is locked the same way: it is one count
    assert Client().post("/accounts/login/", {"username": NAME, "password": PASSWORD}).status_code == 429


def test_the_page_deletes_too_and_logs_her_out(zoltan):
    page = Client()
    page.force_login(zoltan)
    assert page.get("/accounts/data/").status_code == 200
    answer = page.post("/accounts/delete/", {"password": PASSWORD, "confirm": "1"})
    assert answer.status_code == 302
    zoltan.refresh_from_db()
    assert zoltan.deleted_at is not None and zoltan.username == f"deleted-{zoltan.pk}" and not zoltan.is_active
    assert page.get("/accounts/profile/").status_code == 302  # to the login page: her session is gone
    assert APIClient().post("/api/me/delete/", {"password": PASSWORD}, format="json").status_code in (401, 403)

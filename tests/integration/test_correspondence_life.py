"""A correspondence life over the API, with a real worker and beat on the embedded default (ruling S6, S1, S7).

Three people play as the issue's check asks: a challenge accepted leaves its creator, who moves first, with a
"your turn" and (away from the board) its email after the grace; a declined challenge is told to the challenger and
its table closed; a resignation before anyone moved aborts the table and changes no rating; a blocked person's
challenge is refused; then forty turns between two people away from their boards, at three tables, in which every
turn is told at once in the site, and mailed after the grace exactly when no email went to that table since she
last visited it.  The grace is a few seconds; nothing here asserts how long anything took, only what arrived.
"""

from __future__ import annotations

import itertools

import pytest
from django.test import Client

from games.models import Game, Seat
from games.selectors.positions import load_state
from notifications.models import Notification, NotificationDelivery
from ratings.models import Rating, RatingChange
from tests.conftest import api_client_for
from tests.games.tables import dealt_with, pick, seed_for
from tests.integration.workers import Worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)
GRACE = 3
TURNS = 40


@pytest.fixture
def life_worker(transactional_db, tmp_path, sent_tasks, settings):
    """`celery worker -B` on the filesystem broker (the embedded default), with a grace of a few seconds."""
    from tests.conftest import TEST_BROKER

    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = GRACE  # this process's pages record presence as the worker expects
    worker = Worker("life", tmp_path / "life.log", broker_dir=TEST_BROKER, TOPOS_TURN_MAIL_GRACE_SECONDS=GRACE)
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()


def turn_mails(worker: Worker, user, game_id: int) -> int:
    """The "your turn" emails at this table that the worker's console mailer wrote to her."""
    subject = f"[Topos] Your turn at Topology #{game_id}"
    return sum(1 for email in worker.emails() if email.subject == subject and email.to == [user.email])


def challenge_accepted(challenger, challenged, *, first: int) -> Game:
    """`challenger` challenges over the API and `challenged` accepts; seat `first` moves first."""
    table = api_client_for(challenger).post(
        "/api/challenges/", {"username": challenged.username, "game": "topology"}, format="json"
    )
    assert table.status_code == 201, table.content
    api = api_client_for(challenged)
    (invitation,) = [i for i in api.get("/api/invitations/").json()["results"] if i["table"] == table.json()["id"]]
    with dealt_with(seed_for("topology", 2, first=first)):
        assert api.post(f"/api/invitations/{invitation['id']}/accept/").status_code == 200
    return Game.objects.get(pk=table.json()["id"])


def turn_key(game: Game, user) -> str:
    seat = Seat.objects.get(game=game, user=user)
    return f"turn:{game.pk}:{seat.index}:v{seat.turn_began}"


def told_her_turn(game: Game, user) -> Notification:
    """Her "your turn" at this table for the turn she is in now, as the worker made it."""
    key = turn_key(game, user)
    return wait_for(
        lambda: Notification.objects.filter(recipient=user, key=key, kind="your_turn").first(),
        60,
        f"{user.username}'s turn at #{game.pk} to be told",
    )


def mailed(user, key: str) -> NotificationDelivery:
    return wait_for(
        lambda: NotificationDelivery.objects.filter(recipient=user, key=key, channel="email", status="sent").first(),
        60,
        f"the email for {key}",
    )


def api_turn(game: Game, user) -> Game:
    """Her whole turn over the API, decision by decision (Topology: tiles, then end_turn)."""
    api = api_client_for(user)
    while True:
        game = Game.objects.get(pk=game.pk)
        seat = Seat.objects.get(game=game, user=user).index
        action = pick("topology", load_state(game), seat)
        answer = api.post(
            f"/api/tables/{game.pk}/actions/", {"action": action, "expected_version": game.version}, format="json"
        )
        assert answer.status_code in (200, 201), answer.content
        game = Game.objects.get(pk=game.pk)
        if action["type"] == "end_turn" or not game.is_running or seat not in game.to_act:
            return game


def test_a_correspondence_life(life_worker, owner, member, outsider):
    ana, bruno, carla = owner, member, outsider  # ana, bruno and chen

    # A challenge accepted: its creator moves first, is told so, and away from the board is mailed after the grace.
    first = challenge_accepted(ana, bruno, first=0)
    assert first.to_act == [0] and first.created_by == ana
    key = told_her_turn(first, ana).key
    mailed(ana, key)
    wait_for(lambda: turn_mails(life_worker, ana, first.pk) == 1, 30, "the email the worker printed")
    answers = Notification.objects.filter(recipient=ana, kind="answered", game=first)
    assert wait_for(lambda: answers.exists(), 30, "the acceptance told to ana")
    assert not Notification.objects.filter(recipient=bruno, kind="started", game=first).exists()  # his own click

    # A declined challenge is told to the challenger, and its table is closed, never listed.
    declined = api_client_for(carla).post(
        "/api/challenges/", {"username": bruno.username, "game": "topology"}, format="json"
    )
    bruno_api = api_client_for(bruno)
    (invitation,) = [
        i for i in bruno_api.get("/api/invitations/").json()["results"] if i["invited_by"] == carla.username
    ]
    assert bruno_api.post(f"/api/invitations/{invitation['id']}/decline/").status_code == 204
    wait_for(
        lambda: Notification.objects.filter(recipient=carla, kind="answered", game_id=declined.json()["id"]).exists(),
        30,
        "the decline told to carla",
    )
    assert Game.objects.get(pk=declined.json()["id"]).status == "aborted"
    listed = api_client_for(ana).get("/api/tables/").json()["results"]
    assert declined.json()["id"] not in [t["id"] for t in listed]

    # A resignation before anyone moved aborts the table and changes no rating (ruling S1, turn 3).
    ratings_before = list(Rating.objects.order_by("pk").values())
    unplayed = challenge_accepted(ana, carla, first=0)
    assert api_client_for(ana).post(f"/api/tables/{unplayed.pk}/resign/").status_code == 200
    unplayed.refresh_from_db()
    assert unplayed.status == "aborted" and unplayed.abort_reason == "resigned"
    for person in (ana, carla):
        wait_for(
            lambda person=person: Notification.objects.filter(recipient=person, kind="aborted", game=unplayed).exists(),
            30,
            f"the abort told to {person.username}",
        )
    assert list(Rating.objects.order_by("pk").values()) == ratings_before
    assert not RatingChange.objects.filter(game=unplayed).exists()
    assert api_client_for(carla).get(f"/api/tables/{unplayed.pk}/").json()["status"] == "aborted"

    # Bruno blocks carla: her challenge is refused with a plain "not possible" (ruling S7), nothing reaches him.
    assert bruno_api.post("/api/me/blocks/", {"username": carla.username}, format="json").status_code == 201
    refused = api_client_for(carla).post(
        "/api/challenges/", {"username": bruno.username, "game": "topology"}, format="json"
    )
    assert refused.status_code == 403 and "not possible" in refused.json()["detail"]
    assert Game.objects.filter(created_by=carla).count() == 1  # the declined one: the refused one made no table

    # Forty turns between ana and bruno, away from their boards, at three tables (a Topology game of two has
    # about seventeen turns).  Ana comes back to a table's page now and then; bruno never does.
    ana_api_page = Client()
    ana_api_page.force_login(ana)
    api_turn(first, ana)  # her first turn, already mailed above
    tables = [first, challenge_accepted(bruno, ana, first=1), challenge_accepted(ana, bruno, first=1)]
    mailed_since_visit = {(ana.pk, first.pk): True}
    mails_due = {(person.pk, t.pk): 0 for person in (ana, bruno) for t in tables}
    mails_due[(ana.pk, first.pk)] = 1
    visits = {t.pk: 0 for t in tables}
    played = 0
    for turn in itertools.count():
        if played >= TURNS:
            break
        game = Game.objects.get(pk=tables[turn % len(tables)].pk)
        if not game.is_running:
            continue
        (to_act,) = game.to_act
        person = Seat.objects.get(game=game, index=to_act).user
        told = told_her_turn(game, person)  # told at once in the site, mailed or not
        if not mailed_since_visit.get((person.pk, game.pk)):
            mailed(person, told.key)  # away and not mailed since her last visit: the email, after the grace
            mailed_since_visit[(person.pk, game.pk)] = True
            mails_due[(person.pk, game.pk)] += 1
        else:
            assert not NotificationDelivery.objects.filter(recipient=person, key=told.key, channel="email").exists()
        if person == ana and played % 7 == 3:
            assert ana_api_page.get(f"/tables/{game.pk}/").status_code == 200  # she visits, then leaves
            mailed_since_visit[(ana.pk, game.pk)] = False
            visits[game.pk] += 1
        api_turn(game, person)
        played += 1

    for person in (ana, bruno):
        for t in tables:
            expected = mails_due[(person.pk, t.pk)]
            wait_for(lambda p=person, t=t, n=expected: turn_mails(life_worker, p, t.pk) >= n, 30, "the emails")
            assert turn_mails(life_worker, person, t.pk) == expected
            assert expected <= 1 + (visits[t.pk] if person == ana else 0)  # one per table until she visits it
    assert all(mails_due[(bruno.pk, t.pk)] == 1 for t in tables)  # he never came back: one email a table
    assert sum(visits.values()) >= 2 and sum(mails_due[(ana.pk, t.pk)] for t in tables) > len(tables)

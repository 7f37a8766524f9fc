"""Every answer is heard and every first turn told (ruling S6): challenges, invitations and rematches accepted or
declined, the first mover of a new table (its creator included) however it was started, one "started" per person
and none to whose click dealt it, and a tournament's one email per entrant."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.services import user_create
from feed.models import Event
from games import services
from games.models import Game, GameEffects
from games.selectors.lobby import tables_open_listed
from games.services.invitations import invitation_accept, invitation_decline
from games.services.rematch import game_rematch
from notifications.events import game_effects_dispatch
from notifications.models import Notification
from notifications.services import notification_preferences_set
from tests.conftest import api_client_for
from tests.games.tables import dealt_with, play_turn, read_by_her, seed_for, topology_table
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def notes(user, game=None) -> list[tuple[str, bool]]:
    """Her notifications (at `game`), oldest first: (kind, read)."""
    rows = Notification.objects.filter(recipient=user).order_by("pk")
    if game is not None:
        rows = rows.filter(game=game)
    return [(n.kind, n.read_at is not None) for n in rows]


def mails_to(user) -> list[str]:
    return [m.subject for m in mail.outbox if m.to == [user.email]]


def invitation_of(user, game) -> int:
    return game.invitations.get(user=user).pk


# --- the scripted life, over the API ---------------------------------------------------------------------


def test_a_challenge_accepted_leaves_the_creator_who_moves_first_with_a_your_turn_notice(owner, member):
    ana, bruno = api_client_for(owner), api_client_for(member)
    table = ana.post("/api/challenges/", {"username": "bruno", "game": "topology"}, format="json").json()
    (invitation,) = bruno.get("/api/invitations/").json()["results"]
    with dealt_with(seed_for("topology", 2, first=0)):  # the challenger, in seat 0, moves first
        assert bruno.post(f"/api/invitations/{invitation['id']}/accept/").status_code == 200
    game = Game.objects.get(pk=table["id"])
    assert game.status == "running" and game.to_act == [0] and game.started_by == member
    listed = ana.get("/api/notifications/").json()["results"]
    assert sorted(n["kind"] for n in listed) == ["answered", "your_turn"]  # no "started" besides the answer
    answer = next(n for n in listed if n["kind"] == "answered")
    assert answer["text"] == f"bruno accepted your invitation to Topology #{game.pk}, and the table has started."
    # away from the board, she is mailed both (the turn's email as the turn mail rules say)
    assert sorted(mails_to(owner)) == [
        f"[Topos] An answer about Topology #{game.pk}",
        f"[Topos] Your turn at Topology #{game.pk}",
    ]
    # bruno's own click started it: no "started" for him, and his invitation is answered
    assert notes(member) == [("invited", True)]
    assert Event.objects.filter(user=owner, kind="answered", game=game).count() == 1  # and the feed, for clients


def test_a_declined_challenge_is_told_to_the_challenger_and_its_table_closed(owner, member):
    ana, bruno = api_client_for(owner), api_client_for(member)
    table = ana.post("/api/challenges/", {"username": "bruno", "game": "topology"}, format="json").json()
    (invitation,) = bruno.get("/api/invitations/").json()["results"]
    assert bruno.post(f"/api/invitations/{invitation['id']}/decline/").status_code in (200, 204)
    game = Game.objects.get(pk=table["id"])
    assert game.status == "aborted"  # closed, never offered to the lobby
    assert game not in tables_open_listed()
    (answer,) = ana.get("/api/notifications/").json()["results"]
    assert answer["kind"] == "answered" and answer["read"] is False
    assert answer["text"] == f"bruno declined your invitation to Topology #{game.pk}, so the table is closed."
    assert mails_to(owner) == [f"[Topos] An answer about Topology #{game.pk}"]
    assert notes(member) == [("invited", True)]  # her invitation is moot


# --- invitations, rematches --------------------------------------------------------------------------------------


def test_an_ordinary_invitation_declined_is_told_and_the_table_stays_open(owner, member):
    game = services.game_create(user=owner, kind="topology", players=3, auto_start=True)
    services.game_invite(user=owner, game_id=game.pk, username="bruno")
    invitation_decline(user=member, invitation_id=invitation_of(member, game))
    game.refresh_from_db()
    assert game.status == "open"
    (note,) = Notification.objects.filter(recipient=owner, kind="answered")
    assert read_by_her(note) == f"bruno declined your invitation to Topology #{game.pk}."


def test_an_acceptance_that_does_not_fill_the_table_is_told_and_moot_once_it_starts(owner, member, outsider):
    game = services.game_create(user=owner, kind="topology", players=3, auto_start=True)
    services.game_invite(user=owner, game_id=game.pk, username="bruno")
    invitation_accept(user=member, invitation_id=invitation_of(member, game))
    (note,) = Notification.objects.filter(recipient=owner, kind="answered")
    assert read_by_her(note) == f"bruno accepted your invitation to Topology #{game.pk}."
    assert note.read_at is None and notes(member) == [("invited", True)]
    services.game_join(user=outsider, game_id=game.pk)  # the last seat: chen's click deals it
    game.refresh_from_db()
    assert game.is_running and game.started_by == outsider
    note.refresh_from_db()
    assert note.read_at is not None  # the start makes the acceptance moot (ruling S6)
    started = Notification.objects.filter(game=game, kind="started")
    assert sorted(started.values_list("recipient__username", flat=True)) == ["ana", "bruno"]  # not chen
    (first,) = game.to_act
    mover = game.seats.get(index=first).user
    assert Notification.objects.filter(recipient=mover, game=game, kind="your_turn", read_at__isnull=True).exists()


def test_a_declined_rematch_is_told_and_its_table_closed_not_listed(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    game = play_turn(game, member)
    services.game_resign(game_id=game.pk, user=owner)
    assert Game.objects.get(pk=game.pk).status == "finished"
    Game.objects.filter(pk=game.pk).update(auto_start=True)  # as the page and the API open tables
    rematch = game_rematch(user=member, game_id=game.pk)
    assert rematch.for_invited and rematch.auto_start
    invitation_decline(user=owner, invitation_id=invitation_of(owner, rematch))
    rematch.refresh_from_db()
    assert rematch.status == "aborted" and rematch not in tables_open_listed()
    (note,) = Notification.objects.filter(recipient=member, kind="answered")
    assert read_by_her(note) == f"ana declined your invitation to Topology #{rematch.pk}, so the table is closed."


def test_a_rematch_accepted_tells_its_first_mover_and_the_asker(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)
    game = play_turn(game, member)
    services.game_resign(game_id=game.pk, user=owner)
    Game.objects.filter(pk=game.pk).update(auto_start=True)  # as the page and the API open tables
    rematch = game_rematch(user=member, game_id=game.pk)  # bruno in seat 0, ana invited
    with dealt_with(seed_for("topology", 2, first=0)):
        invitation_accept(user=owner, invitation_id=invitation_of(owner, rematch))
    rematch.refresh_from_db()
    assert rematch.is_running and rematch.to_act == [0]
    assert notes(member, rematch) == [("answered", False), ("your_turn", False)]  # the asker moves first
    assert notes(owner, rematch) == [("invited", True)]  # her click started it


# --- how the table was started -----------------------------------------------------------------------------------


def test_the_start_button_tells_everyone_else_it_started_and_the_first_mover_her_turn(owner, member, outsider):
    game = topology_table(owner, member, outsider, start=False)
    with dealt_with(seed_for("topology", 3, game.options, first=1)):
        services.game_start(user=owner, game_id=game.pk)
    assert notes(owner, game) == []  # she pressed start, someone else moves first
    assert notes(member, game) == [("started", False), ("your_turn", False)]
    assert notes(outsider, game) == [("started", False)]


def test_whoever_seats_the_last_bot_is_not_told_it_started(owner, member):
    game = services.game_create(user=owner, kind="topology", players=3, auto_start=True)
    services.game_join(user=member, game_id=game.pk)
    with dealt_with(seed_for("topology", 3, game.options, first=0)):
        services.game_add_bot(user=owner, game_id=game.pk, level="greedy")
    game.refresh_from_db()
    assert game.is_running and game.started_by == owner
    assert notes(owner, game) == [("your_turn", False)]  # her first turn is told, her start is not
    assert notes(member, game) == [("started", False)]


def test_a_started_table_tells_each_person_once(owner, member):
    game = topology_table(owner, member)
    GameEffects.objects.filter(game=game).update(version=-1, status="open")  # a dispatch re-run from the start
    game_effects_dispatch(game_id=game.pk)
    assert Notification.objects.filter(game=game, kind="started").count() == 1
    assert Notification.objects.filter(game=game, kind="your_turn").count() == 1


# --- a tournament ------------------------------------------------------------------------------------------------


def test_a_tournament_start_sends_each_entrant_one_email_listing_her_tables(owner):
    people = [
        user_create(username=f"t{i}", email=f"t{i}@example.com", password="a-long-test-password") for i in range(3)
    ]
    cup = tournaments.tournament_create(
        user=owner, name="Cup", kind="topology", players=2, starts_at=timezone.now() + timedelta(hours=1)
    )
    for person in people:
        tournaments.tournament_register(user=person, tournament_id=cup.pk)
    Tournament.objects.filter(pk=cup.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
    mail.outbox.clear()
    tournaments.tournament_start(tournament_id=cup.pk)
    games = list(Game.objects.filter(tournament_table__tournament=cup))
    assert games and all(g.is_running for g in games)
    assert not Notification.objects.filter(kind="started").exists()
    for person in people:
        assert mails_to(person) == ["[Topos] News of a tournament at Topos"]  # one email, the tournament's
        (note,) = Notification.objects.filter(recipient=person, kind="tournament")
        mine = [g for g in games if g.seats.filter(user=person).exists()]
        text = read_by_her(note)
        assert f"you play {len(mine)} games" in text
        for g in mine:
            assert f"Topology #{g.pk}" in text
            seat = g.seats.get(user=person)
            if seat.index in g.to_act:
                assert f"Topology #{g.pk} (your turn)" in text
                # her first turn is in the site, not mailed a second time (ruling S6)
                assert Notification.objects.filter(recipient=person, game=g, kind="your_turn").exists()


def test_a_decline_that_closes_a_rematch_is_told_to_whoever_already_accepted(owner, member, outsider):
    game = topology_table(owner, member, outsider)
    for user in (owner, member, outsider):
        game = play_turn(game, user)
    services.game_resign(game_id=game.pk, user=owner)
    services.game_resign(game_id=game.pk, user=outsider)  # bruno is left alone: the game is over
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished"
    rematch = game_rematch(user=member, game_id=game.pk)
    invitation_accept(user=outsider, invitation_id=invitation_of(outsider, rematch))
    invitation_decline(user=owner, invitation_id=invitation_of(owner, rematch))
    rematch.refresh_from_db()
    assert rematch.status == "aborted"
    (asker,) = Notification.objects.filter(recipient=member, kind="answered", params__accepted=False)
    assert read_by_her(asker) == f"ana declined your invitation to Topology #{rematch.pk}, so the table is closed."
    (seated,) = Notification.objects.filter(recipient=outsider, kind="answered")
    assert read_by_her(seated) == f"ana declined bruno's invitation to Topology #{rematch.pk}, so the table is closed."


def test_without_tournament_emails_her_first_turn_at_a_tournament_table_is_mailed(owner, member, outsider):
    notification_preferences_set(user=member, choices={"tournament": "none"})
    # Entrants are numbered at random, so who moves first is chance: deal cups until she moves first at one of them
    # (each cup is a coin toss; twenty tosses all lost is one chance in a million).
    cups = []
    firsts = []
    while not firsts and len(cups) < 20:
        cup = tournaments.tournament_create(
            user=owner,
            name=f"Cup {len(cups) + 1}",
            kind="topology",
            players=2,
            starts_at=timezone.now() + timedelta(hours=1),
        )
        for person in (member, outsider):
            tournaments.tournament_register(user=person, tournament_id=cup.pk)
        Tournament.objects.filter(pk=cup.pk).update(starts_at=timezone.now() - timedelta(seconds=1))
        tournaments.tournament_start(tournament_id=cup.pk)
        cups.append(cup)
        firsts = [
            g
            for g in Game.objects.filter(tournament_table__tournament__in=cups, seats__user=member)
            if g.seats.get(user=member).index in g.to_act
        ]
    assert firsts
    # One mail per table where she moves first, and none where she does not; tables are dealt in no promised order.
    assert sorted(mails_to(member)) == sorted(f"[Topos] Your turn at Topology #{g.pk}" for g in firsts)
    # the one who kept tournament emails hears of each cup, and her turns in it go unmailed
    assert mails_to(outsider) == ["[Topos] News of a tournament at Topos"] * len(cups)

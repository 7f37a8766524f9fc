"""Tournament services (tournaments.services): creating, registering and withdrawing, the start at the start
time (the right tables for 2, 3 and 4 players a table, never twice, cancelled below the minimum) and the end."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from itertools import combinations

import pytest
from django.utils import timezone

from accounts.services import user_create
from games import services as game_services
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game
from notifications.models import Notification, NotificationEvent
from tests.games.tables import everyone_played, read_by_her
from tournaments import services
from tournaments.models import Entrant, Tournament, TournamentTable

pytestmark = pytest.mark.django_db


def _people(n, prefix="p"):
    return [
        user_create(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com", password="a-long-test-password")
        for i in range(n)
    ]


def _open(organiser, *, kind="topology", players=2, **kwargs):
    kwargs.setdefault("starts_at", timezone.now() + timedelta(hours=2))
    return services.tournament_create(user=organiser, name="Cup", kind=kind, players=players, **kwargs)


def _due(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(starts_at=timezone.now() - timedelta(seconds=1))


def _seatings(tournament) -> list[tuple[int, ...]]:
    games = Game.objects.filter(tournament_table__tournament=tournament).order_by("tournament_table__number")
    return [tuple(g.seats.order_by("index").values_list("user_id", flat=True)) for g in games]


# --- creating -------------------------------------------------------------------------------------------------


def test_create_checks_its_settings_as_a_table_would(owner):
    with pytest.raises(BadRequest) as bad:
        _open(owner, kind="chess")
    assert bad.value.field == "kind"
    with pytest.raises(BadRequest) as bad:
        _open(owner, players=9)
    assert bad.value.field == "players"
    with pytest.raises(BadRequest):
        _open(owner, kind="toppo", options={"hands": 99})  # the engine's own check
    with pytest.raises(BadRequest) as bad:
        _open(owner, turn_seconds=4 * 86400)
    assert bad.value.field == "turn_seconds"
    with pytest.raises(BadRequest) as bad:
        _open(owner, starts_at=timezone.now() + timedelta(minutes=1))
    assert bad.value.field == "starts_at"
    with pytest.raises(BadRequest) as bad:
        _open(owner, players=3, min_entrants=2)  # fewer than one table
    assert bad.value.field == "min_entrants"
    with pytest.raises(BadRequest) as bad:
        _open(owner, min_entrants=6, max_entrants=4)
    assert bad.value.field == "max_entrants"
    with pytest.raises(BadRequest):
        services.tournament_create(
            user=owner, name="  ", kind="topology", players=2, starts_at=timezone.now() + timedelta(hours=1)
        )
    assert not Tournament.objects.exists()


def test_create_registers_the_organiser_unless_told_not_and_plays_toppo_by_correspondence(owner):
    mine = _open(owner, kind="toppo", options={"hands": 1})
    assert list(mine.entrants.values_list("user", flat=True)) == [owner.pk]
    assert mine.options["pace"] == "correspondence" and mine.options["hands"] == 1
    assert mine.status == Tournament.Status.REGISTERING
    assert not _open(owner, join=False).entrants.exists()


def test_an_organiser_has_at_most_five_tournaments_waiting(owner):
    for _ in range(5):
        _open(owner)
    with pytest.raises(Conflict):
        _open(owner)


# --- registering and withdrawing --------------------------------------------------------------------------------


def test_register_and_withdraw_rules(owner, member, outsider):
    tournament = _open(owner, max_entrants=2)
    services.tournament_register(user=member, tournament_id=tournament.pk)
    with pytest.raises(Conflict):
        services.tournament_register(user=member, tournament_id=tournament.pk)  # twice
    with pytest.raises(Conflict):
        services.tournament_register(user=outsider, tournament_id=tournament.pk)  # full
    with pytest.raises(Conflict):
        services.tournament_withdraw(user=outsider, tournament_id=tournament.pk)  # not registered
    services.tournament_withdraw(user=member, tournament_id=tournament.pk)
    services.tournament_register(user=outsider, tournament_id=tournament.pk)  # a place came free
    assert set(tournament.entrants.values_list("user__username", flat=True)) == {"ana", "chen"}
    with pytest.raises(NotFound):
        services.tournament_register(user=member, tournament_id=tournament.pk + 100)


def test_registration_closes_at_the_start_time_even_before_the_beat_runs(owner, member):
    tournament = _open(owner)
    _due(tournament)
    with pytest.raises(Conflict):
        services.tournament_register(user=member, tournament_id=tournament.pk)
    with pytest.raises(Conflict):
        services.tournament_withdraw(user=owner, tournament_id=tournament.pk)
    assert tournament.entrants.count() == 1


# --- the start ----------------------------------------------------------------------------------------------


def test_start_before_its_time_does_nothing(owner, member):
    tournament = _open(owner, min_entrants=2)
    services.tournament_register(user=member, tournament_id=tournament.pk)
    assert services.tournament_start(tournament_id=tournament.pk).status == Tournament.Status.REGISTERING
    assert not TournamentTable.objects.exists()


def test_two_players_a_table_every_pair_once_all_started_and_rated(owner):
    people = _people(5)
    tournament = _open(people[0], min_entrants=5)
    for person in people[1:]:
        services.tournament_register(user=person, tournament_id=tournament.pk)
    _due(tournament)
    started = services.tournament_start(tournament_id=tournament.pk)
    assert started.status == Tournament.Status.RUNNING and started.started_at is not None
    seatings = _seatings(tournament)
    assert Counter(frozenset(s) for s in seatings) == Counter(
        {frozenset((a.pk, b.pk)): 1 for a, b in combinations(people, 2)}
    )
    games = Game.objects.filter(tournament_table__tournament=tournament)
    assert all(
        g.is_running
        and g.rated
        and g.pace == "correspondence"
        and g.turn_seconds == 3 * 86400
        and g.created_by_id == people[0].pk
        and not g.private
        for g in games
    )
    first = Counter(s[0] for s in seatings)
    assert set(first.values()) == {2}  # four games each, two of them in seat 0
    assert sorted(Entrant.objects.filter(tournament=tournament).values_list("number", flat=True)) == [0, 1, 2, 3, 4]


def test_double_round_robin_meets_in_both_seats(owner, member, outsider):
    tournament = _open(owner, double=True, min_entrants=3, rated=False)
    for person in (member, outsider):
        services.tournament_register(user=person, tournament_id=tournament.pk)
    _due(tournament)
    services.tournament_start(tournament_id=tournament.pk)
    seatings = _seatings(tournament)
    ids = [owner.pk, member.pk, outsider.pk]
    assert sorted(seatings) == sorted((a, b) for a in ids for b in ids if a != b)
    assert not Game.objects.filter(tournament_table__tournament=tournament, rated=True).exists()


@pytest.mark.parametrize(("players", "entrants", "tables"), [(3, 4, 4), (3, 5, 5), (4, 5, 5), (4, 4, 4)])
def test_groups_of_three_and_four_meet_everyone_and_rotate_seats(players, entrants, tables):
    people = _people(entrants)
    tournament = _open(people[0], players=players, min_entrants=entrants)
    for person in people[1:]:
        services.tournament_register(user=person, tournament_id=tournament.pk)
    _due(tournament)
    services.tournament_start(tournament_id=tournament.pk)
    seatings = _seatings(tournament)
    assert len(seatings) == tables and all(len(set(s)) == players for s in seatings)
    met = {frozenset(p) for s in seatings for p in combinations(s, 2)}
    assert met == {frozenset((a.pk, b.pk)) for a, b in combinations(people, 2)}
    seats = Counter((u, i) for s in seatings for i, u in enumerate(s))
    assert len(seats) == entrants * players and len(set(seats.values())) == 1


def test_start_is_idempotent(owner, member):
    tournament = _open(owner, min_entrants=2)
    services.tournament_register(user=member, tournament_id=tournament.pk)
    _due(tournament)
    services.tournament_start(tournament_id=tournament.pk)
    services.tournament_start(tournament_id=tournament.pk)
    assert services.tournaments_start_due() == []  # the beat finds nothing due
    assert TournamentTable.objects.filter(tournament=tournament).count() == 1
    assert Game.objects.count() == 1
    assert Notification.objects.filter(kind=NotificationEvent.TOURNAMENT).count() == 2  # each told once


def test_too_few_entrants_cancel_it_and_tell_them(owner, member):
    tournament = _open(owner, min_entrants=3)
    services.tournament_register(user=member, tournament_id=tournament.pk)
    _due(tournament)
    assert services.tournaments_start_due() == [tournament.pk]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert not Game.objects.exists()
    for person in (owner, member):
        note = Notification.objects.get(recipient=person, kind=NotificationEvent.TOURNAMENT)
        assert note.key == f"tournament:{tournament.pk}:cancelled"
        assert "at least 3 entrants" in read_by_her(note)
    with pytest.raises(Conflict):
        services.tournament_register(user=member, tournament_id=tournament.pk)


# --- the end ------------------------------------------------------------------------------------------------


def test_ends_when_every_table_is_over_and_aborted_tables_count_for_nobody(owner, member, outsider):
    tournament = _open(owner, min_entrants=3, rated=False)
    for person in (member, outsider):
        services.tournament_register(user=person, tournament_id=tournament.pk)
    _due(tournament)
    services.tournament_start(tournament_id=tournament.pk)
    games = list(Game.objects.filter(tournament_table__tournament=tournament).order_by("tournament_table__number"))
    assert len(games) == 3
    # Table 1: its seat 0 resigns (the other wins); table 2: both agree to abort; table 3 still runs.
    loser = games[0].seats.get(index=0).user
    everyone_played(games[0])  # ruling S1, turn 3: resigning before that would abort the table
    game_services.game_resign(user=loser, game_id=games[0].pk)
    for seat in games[1].seats.all():
        game_services.game_abort_agree(user=seat.user, game_id=games[1].pk)
    assert services.tournament_settle(tournament_id=tournament.pk).status == Tournament.Status.RUNNING
    winner = games[2].seats.get(index=1).user
    everyone_played(games[2])
    game_services.game_resign(user=games[2].seats.get(index=0).user, game_id=games[2].pk)
    assert services.tournaments_settle_running() == [tournament.pk]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    from tournaments.selectors import tournament_standings

    rows = tournament_standings(tournament)
    assert sum(r.points for r in rows) == 2 and sum(r.played for r in rows) == 4  # the aborted table: nobody
    assert tournament.winner_id == rows[0].user_id
    assert winner.pk in {r.user_id for r in rows if r.points == 1}
    assert Notification.objects.filter(key=f"tournament:{tournament.pk}:finished").count() == 3
    assert services.tournament_settle(tournament_id=tournament.pk).finished_at == tournament.finished_at


# --- the organiser: cancel, or start early ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_organiser_cancels_before_the_start_and_the_entrants_are_told_by_a_task(owner, member, celery_eager):
    tournament = _open(owner)
    services.tournament_register(user=member, tournament_id=tournament.pk)
    with pytest.raises(Forbidden):
        services.tournament_cancel(user=member, tournament_id=tournament.pk)
    services.tournament_cancel(user=owner, tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    note = Notification.objects.get(kind=NotificationEvent.TOURNAMENT)  # the organiser is not told of her own act
    assert note.recipient == member and "cancelled by its organiser" in read_by_her(note)
    assert services.tournaments_cancelled_tell_recent() == 1  # the sweep's second try tells nobody twice
    assert Notification.objects.filter(kind=NotificationEvent.TOURNAMENT).count() == 1
    with pytest.raises(Conflict):
        services.tournament_cancel(user=owner, tournament_id=tournament.pk)
    with pytest.raises(Conflict):
        services.tournament_register(user=member, tournament_id=tournament.pk)


@pytest.mark.django_db(transaction=True)
def test_the_organiser_starts_it_early_once_enough_have_entered(owner, member, outsider, celery_eager):
    tournament = _open(owner, min_entrants=3)
    services.tournament_register(user=member, tournament_id=tournament.pk)
    with pytest.raises(Conflict) as short:
        services.tournament_start_now(user=owner, tournament_id=tournament.pk)
    assert "Only 2 of the 3" in short.value.message
    services.tournament_register(user=outsider, tournament_id=tournament.pk)
    with pytest.raises(Forbidden):
        services.tournament_start_now(user=member, tournament_id=tournament.pk)
    services.tournament_start_now(user=owner, tournament_id=tournament.pk)  # its task deals the tables
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    assert TournamentTable.objects.filter(tournament=tournament).count() == 3
    with pytest.raises(Conflict):
        services.tournament_cancel(user=owner, tournament_id=tournament.pk)

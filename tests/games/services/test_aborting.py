"""Aborting a game (decision 14): the deal shows every seat hidden information, so nobody aborts alone once it is
dealt unless she plays only bots and nothing is logged yet; otherwise every person still playing agrees, or she
resigns.  Bot moves and missed deadlines are actions like hers."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import selectors, services
from games.errors import Conflict, Forbidden
from games.models import Action, Game
from games.selectors.positions import load_state
from games.services.aborting import game_abort, game_abort_agree
from tests.games.factories import started_topology
from tests.games.tables import everyone_played

pytestmark = pytest.mark.django_db


def status(game: Game) -> str:
    return Game.objects.get(pk=game.pk).status


def play_one_decision(game: Game) -> None:
    """The seat to act makes its first legal decision (a person's move)."""
    game = Game.objects.get(pk=game.pk)
    seat = game.to_act[0]
    action = load_state(game).legal_actions(seat)[0]
    services.action_submit(
        game_id=game.pk, user=game.seats.get(index=seat).user, action=action, expected_version=game.version
    )


def test_a_table_that_has_not_started_is_closed_by_its_creator_only(owner, member):
    game = services.game_create(user=owner, kind="topology", players=3)
    services.game_join(user=member, game_id=game.pk)
    with pytest.raises(Forbidden):
        game_abort(user=member, game_id=game.pk)
    game_abort(user=owner, game_id=game.pk)
    assert status(game) == Game.Status.ABORTED


def test_after_the_deal_nobody_aborts_alone_even_before_the_first_move(owner, member):
    game = started_topology(owner, member)  # both have seen their revealed tiles; no move yet
    assert not Action.objects.filter(game=game).exists()
    for person in (owner, member):
        with pytest.raises(Conflict) as refused:
            game_abort(user=person, game_id=game.pk)
        assert "Agree to abort, or resign" in refused.value.message
    assert status(game) == Game.Status.RUNNING


def test_every_person_agreeing_aborts_the_game(owner, member):
    game = started_topology(owner, member)
    game_abort_agree(user=owner, game_id=game.pk)
    assert status(game) == Game.Status.RUNNING
    standing = selectors.table_detail(Game.objects.get(pk=game.pk), member)["abort"]
    assert standing == {"players": [0, 1], "agreed": [0], "i_agreed": False, "alone": False, "by_agreement": True}
    game_abort_agree(user=member, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.finished_at is not None
    assert not game.seats.filter(deadline__isnull=False).exists()
    with pytest.raises(Conflict):
        services.action_submit(game_id=game.pk, user=owner, action={"type": "end_turn"}, expected_version=0)


def test_an_agreement_lapses_with_the_next_action(owner, member):
    game = started_topology(owner, member)
    game_abort_agree(user=owner, game_id=game.pk)
    play_one_decision(game)  # the position changed: her yes was about the one before
    game_abort_agree(user=member, game_id=game.pk)
    assert status(game) == Game.Status.RUNNING
    game_abort_agree(user=owner, game_id=game.pk)
    assert status(game) == Game.Status.ABORTED


def test_an_agreement_can_be_taken_back(owner, member):
    game = started_topology(owner, member)
    game_abort_agree(user=owner, game_id=game.pk)
    game_abort_agree(user=owner, game_id=game.pk, agree=False)
    game_abort_agree(user=member, game_id=game.pk)
    assert status(game) == Game.Status.RUNNING


def test_those_who_left_have_no_say_and_strangers_none_either(owner, member, outsider):
    game = services.game_create(user=owner, kind="topology", players=3)
    services.game_join(user=member, game_id=game.pk)
    services.game_join(user=outsider, game_id=game.pk)
    services.game_start(user=owner, game_id=game.pk)
    everyone_played(game)  # ruling S1, turn 3: before that, leaving aborts the game
    services.game_resign(user=outsider, game_id=game.pk)
    with pytest.raises(Conflict, match="already left"):
        game_abort_agree(user=outsider, game_id=game.pk)
    game_abort_agree(user=owner, game_id=game.pk)
    game_abort_agree(user=member, game_id=game.pk)
    assert status(game) == Game.Status.ABORTED

    public = started_topology(owner, member)
    with pytest.raises(Forbidden):
        game_abort_agree(user=outsider, game_id=public.pk)
    with pytest.raises(Forbidden):
        game_abort(user=outsider, game_id=public.pk)


def against_a_bot(owner, kind: str = "toppo") -> Game:
    game = services.game_create(user=owner, kind=kind, players=2, bots=["random"])
    return services.game_start(user=owner, game_id=game.pk)


def test_alone_against_bots_she_may_abort_until_anything_is_logged(owner):
    game = against_a_bot(owner)
    assert selectors.table_detail(Game.objects.get(pk=game.pk), owner)["abort"]["alone"] is True
    game_abort(user=owner, game_id=game.pk)
    assert status(game) == Game.Status.ABORTED


def test_a_bots_move_counts_as_an_action(owner):
    game = against_a_bot(owner)  # a correspondence Toppo round: both seats decide, the bot may go first
    calls = services.bot_tasks_claim(game_id=game.pk)
    assert [c.seat for c in calls] == [1]
    assert services.bot_turn_play(game_id=game.pk, seat=1, token=calls[0].token)
    assert set(Action.objects.filter(game=game).values_list("source", flat=True)) == {"bot"}
    with pytest.raises(Conflict, match="resign instead of aborting"):
        game_abort(user=owner, game_id=game.pk)
    with pytest.raises(Conflict, match="resign instead of aborting"):
        game_abort_agree(user=owner, game_id=game.pk)
    assert status(game) == Game.Status.RUNNING
    assert selectors.table_detail(Game.objects.get(pk=game.pk), owner)["abort"]["alone"] is False


def test_a_missed_deadline_counts_as_an_action(owner):
    game = against_a_bot(owner)
    game.seats.filter(index=0).update(deadline=timezone.now() - timedelta(seconds=1))
    assert services.deadline_expire(game_id=game.pk, seat=0, version=game.version) is not None
    assert set(Action.objects.filter(game=game).values_list("source", flat=True)) == {"timeout"}
    with pytest.raises(Conflict, match="resign instead of aborting"):
        game_abort(user=owner, game_id=game.pk)
    assert status(game) == Game.Status.RUNNING


def test_a_finished_game_is_not_aborted(owner, member):
    game = started_topology(owner, member)
    services.game_resign(user=member, game_id=game.pk)
    with pytest.raises(Conflict, match="already over"):
        game_abort(user=owner, game_id=game.pk)
    with pytest.raises(Conflict, match="running game"):
        game_abort_agree(user=owner, game_id=game.pk)

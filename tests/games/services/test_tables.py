"""Opening, joining, starting and leaving tables (games.services.tables)."""

import pytest

from games import services
from games.errors import BadRequest, Conflict, Forbidden, NotFound
from games.models import Game
from games.services import tables
from tests.games.tables import everyone_played

pytestmark = pytest.mark.django_db


def test_it_opens_a_table_with_the_creator_in_seat_zero(owner):
    game = tables.game_create(user=owner, kind="topology", players=3)
    assert game.status == Game.Status.OPEN
    assert [(s.index, s.user_id) for s in game.seats.all()] == [(0, owner.pk)]
    assert game.state is None and game.seed == ""


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"kind": "chess", "players": 2}, "no game called"),
        ({"kind": "topology", "players": 5}, "2 to 4 players"),
        ({"kind": "topology", "players": 3, "options": {"advanced": True}}, "two players only"),
        ({"kind": "topology", "players": 2, "options": {"colour": "red"}}, "Unknown option"),
        ({"kind": "topology", "players": 2, "pace": "live", "turn_seconds": 60}, "is not played at a live pace"),
        ({"kind": "topology", "players": 2, "turn_seconds": 4 * 86400}, "days"),
        ({"kind": "topology", "players": 2, "bots": ["grandmaster"]}, "Unknown bot level"),
        ({"kind": "topology", "players": 2, "bots": ["random", "random"]}, "At most 1"),
    ],
)
def test_it_refuses_bad_tables_with_a_clear_message(owner, kwargs, words):
    with pytest.raises(BadRequest) as err:
        tables.game_create(user=owner, **kwargs)
    assert words in err.value.message
    assert Game.objects.count() == 0


def test_joining_rules(owner, member, outsider):
    game = tables.game_create(user=owner, kind="topology", players=2)
    with pytest.raises(Conflict):
        tables.game_join(user=owner, game_id=game.pk)
    tables.game_join(user=member, game_id=game.pk)
    with pytest.raises(Conflict, match="full"):
        tables.game_join(user=outsider, game_id=game.pk)
    with pytest.raises(NotFound):
        tables.game_join(user=outsider, game_id=987654)


def test_private_tables_take_invited_players_or_the_code(owner, member, outsider):
    game = tables.game_create(user=owner, kind="topology", players=3, private=True)
    with pytest.raises(NotFound):  # to her it does not exist
        tables.game_join(user=outsider, game_id=game.pk)
    tables.game_join(user=outsider, game_id=game.pk, invite_code=game.invite_code)
    tables.game_invite(user=owner, game_id=game.pk, username="bruno")
    tables.game_join(user=member, game_id=game.pk)
    assert game.seats.count() == 3


def test_only_the_creator_starts_and_only_when_full(owner, member):
    game = tables.game_create(user=owner, kind="topology", players=2)
    tables.game_join(user=member, game_id=game.pk)
    with pytest.raises(Forbidden):
        tables.game_start(user=member, game_id=game.pk)
    started = tables.game_start(user=owner, game_id=game.pk)
    assert started.status == Game.Status.RUNNING and started.seed and started.state
    with pytest.raises(Conflict):
        tables.game_start(user=owner, game_id=game.pk)


def test_a_table_cannot_start_with_empty_seats_unless_bots_fill_them(owner):
    game = tables.game_create(user=owner, kind="topology", players=3)
    with pytest.raises(Conflict, match="2 seat"):
        tables.game_start(user=owner, game_id=game.pk)
    started = tables.game_start(user=owner, game_id=game.pk, fill_with_bots="random")
    assert [s.bot_level for s in started.seats.all()] == ["", "random", "random"]


def test_the_first_seats_to_act_get_a_deadline(owner, member):
    game = tables.game_create(user=owner, kind="topology", players=2, turn_seconds=86400)
    tables.game_join(user=member, game_id=game.pk)
    game = tables.game_start(user=owner, game_id=game.pk)
    seats = {s.index: s for s in game.seats.all()}
    (first,) = game.to_act
    assert seats[first].deadline is not None
    assert (seats[first].deadline - game.started_at).total_seconds() == pytest.approx(86400, abs=1)
    assert seats[1 - first].deadline is None


def test_leaving_and_closing_a_table_that_has_not_started(owner, member):
    game = tables.game_create(user=owner, kind="topology", players=2)
    tables.game_join(user=member, game_id=game.pk)
    tables.game_leave(user=member, game_id=game.pk)
    assert game.seats.count() == 1
    with pytest.raises(Conflict):
        tables.game_leave(user=owner, game_id=game.pk)
    services.game_abort(user=owner, game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


def test_resigning_a_two_player_game_ends_it_with_the_other_player_winning(owner, member):
    game = tables.game_create(user=owner, kind="topology", players=2)
    tables.game_join(user=member, game_id=game.pk)
    tables.game_start(user=owner, game_id=game.pk)
    everyone_played(game)  # ruling S1, turn 3: before that, leaving aborts the game
    services.game_resign(user=member, game_id=game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert {s.index: s.rank for s in game.seats.all()} == {0: 1, 1: 2}


def test_a_table_its_bots_fill_at_creation_starts_itself_when_asked(owner):
    # Decision 26: "start as soon as every seat is taken" holds for seats taken at the creation too.
    started = tables.game_create(user=owner, kind="topology", players=3, bots=["random", "random"], auto_start=True)
    started.refresh_from_db()
    assert started.status == Game.Status.RUNNING and started.started_by == owner and started.state
    waiting = tables.game_create(user=owner, kind="topology", players=3, bots=["random", "random"])
    half = tables.game_create(user=owner, kind="topology", players=3, bots=["random"], auto_start=True)
    assert {Game.objects.get(pk=g.pk).status for g in (waiting, half)} == {Game.Status.OPEN}

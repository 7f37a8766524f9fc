"""games.selectors.legal_game: the legal-actions read in one written-out query (decision 16) sees exactly the tables
visible_q lets a person see, and knows her seat and whether it left."""

import pytest

from accounts.services import user_create
from games import selectors, services
from games.models import Game, Invitation, Seat
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def _private_started(owner, member) -> Game:
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    services.game_join(user=member, game_id=game.pk, invite_code=game.invite_code)
    return services.game_start(user=owner, game_id=game.pk)


def _as_visible_q_says(user, game: Game) -> bool:
    return selectors.visible_games(user).filter(pk=game.pk).exists()


def test_it_sees_what_visible_q_sees(owner, member, outsider):
    invited = user_create(username="dana", email="dana@example.com", password="a-long-test-password")
    public, private = started_topology(owner, member), _private_started(owner, member)
    Invitation.objects.create(game=private, user=invited, invited_by=owner)
    cases = {
        (owner, public): 0,
        (member, public): 1,
        (outsider, public): None,  # a spectator: no seat, no actions
        (owner, private): 0,
        (invited, private): None,
    }
    for (user, game), seat in cases.items():
        assert _as_visible_q_says(user, game)
        found = selectors.legal_game(user, game.pk)
        assert found is not None and found.pk == game.pk and found.my_seat == seat
        assert found.version == game.version and found.kind == "topology" and not found.my_seat_left
    assert not _as_visible_q_says(outsider, private)
    assert selectors.legal_game(outsider, private.pk) is None
    assert selectors.legal_game(owner, private.pk + 1000) is None


def _seat_left(game: Game, seat: int | None) -> bool:
    return any(s.index == seat and s.abandoned for s in game.seats.all())


def test_its_answer_is_the_one_from_the_whole_table(owner, member):
    game = started_topology(owner, member)
    for user in (owner, member):
        lean = selectors.legal_game(user, game.pk)
        full = Game.objects.prefetch_related(selectors.SEATS_WITH_PLAYERS).get(pk=game.pk)
        seat = selectors.seat_of(full, user)  # the seat and its leaving as the ORM reads them
        assert (lean.my_seat, bool(lean.my_seat_left)) == (seat, _seat_left(full, seat))
        assert selectors.legal_actions_of(lean, lean.my_seat, left=lean.my_seat_left) == (
            selectors.legal_actions_of(full, seat, left=_seat_left(full, seat))
        )
    mover = game.to_act[0]
    Seat.objects.filter(game=game, index=mover).update(abandoned=True)  # her seat left: she decides nothing more
    user = game.seats.get(index=mover).user
    lean = selectors.legal_game(user, game.pk)
    assert lean.my_seat == mover and lean.my_seat_left
    answer = selectors.legal_actions_of(lean, lean.my_seat, left=lean.my_seat_left)
    assert answer["actions"] == [] and answer["my_turn"] is False
    full = Game.objects.prefetch_related("seats").get(pk=game.pk)
    assert _seat_left(full, selectors.seat_of(full, user))  # the ORM agrees that her seat left


def test_its_columns_are_the_orms_values_and_the_rest_deferred(owner, member):
    game = started_topology(owner, member)
    lean = selectors.legal_game(owner, game.pk)
    full = Game.objects.get(pk=game.pk)
    read = {"id", "kind", "state", "status", "version", "to_act"}
    for name in read:
        assert getattr(lean, name) == getattr(full, name) and type(getattr(lean, name)) is type(getattr(full, name))
    assert lean.get_deferred_fields() == {f.attname for f in Game._meta.concrete_fields} - read
    assert not lean._state.adding and lean.is_running

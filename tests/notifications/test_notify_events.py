"""Events become notifications once per person, on commit only, with a link to the game (decision 5)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction

from games import services
from games.models import Action, Game, GameEffects
from notifications.events import game_effects_dispatch
from notifications.models import Notification, NotificationDelivery
from tests.games.tables import decide, kinds_of, play_turn, read_by_her, texts_of, topology_table, words_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_tells_the_others_that_the_table_started_and_whose_turn_it_is(owner, member):
    game = topology_table(owner, member)
    # seat 0 (the owner) starts; she pressed start herself, so only the member hears of it, and she moves
    # first, so she is told of her turn like anyone (ruling S6), not mailed as she was looking at the board
    assert game.to_act == [0]
    assert kinds_of(member) == ["started"]
    assert kinds_of(owner) == ["your_turn"]
    assert "Topology #%d" % game.pk in texts_of(member)[0]
    assert [m.to for m in mail.outbox] == [[member.email]]
    assert f"https://topos.example/tables/{game.pk}/" in mail.outbox[0].body


def test_it_tells_the_next_player_once_per_turn(owner, member):
    game = topology_table(owner, member)
    game = play_turn(game, owner)  # three placements and end_turn (ruling L5): one turn
    assert Action.objects.filter(game=game, seat=0).count() == 4
    assert kinds_of(member) == ["started", "your_turn"]
    note = Notification.objects.get(recipient=member, kind="your_turn")
    assert note.game_id == game.pk and "It is your turn at Topology" in read_by_her(note)
    # the further decisions of her turn tell nobody anything new: the turn is the same
    for _ in range(3):
        game = decide(game, member)
        assert game.to_act == [1]
        assert kinds_of(member) == ["started", "your_turn"]
        assert kinds_of(owner) == ["your_turn"]  # her first, read as she played it
    game = decide(game, member)  # end_turn
    assert game.to_act == [0]
    assert kinds_of(owner) == ["your_turn", "your_turn"]
    email = mail.outbox[-1]
    assert email.to == [owner.email] and "Your turn at Topology" in email.subject
    assert f"https://topos.example/tables/{game.pk}/" in email.body


def test_a_rolled_back_move_tells_nobody_and_moves_no_bot(owner, member):
    game = topology_table(owner, member, bots=["greedy"])  # the bot sits in seat 1, the member joined seat 2
    before = (Notification.objects.count(), len(mail.outbox), GameEffects.objects.get(game=game).version)
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            game = play_turn(game, owner)
            assert game.to_act == [1]  # the bot's turn, which it would take as soon as this commits
            raise RuntimeError("the request failed after the move")
    assert (Notification.objects.count(), len(mail.outbox), GameEffects.objects.get(game=game).version) == before
    assert Action.objects.filter(game=game).count() == 0
    game.refresh_from_db()
    assert game.version == 0 and game.to_act == [0]


def test_a_rolled_back_invitation_tells_nobody(owner, member, outsider):
    game = topology_table(owner, member, start=False)
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            services.game_invite(user=owner, game_id=game.pk, username=outsider.username)
            raise RuntimeError("rolled back")
    assert kinds_of(outsider) == [] and mail.outbox == []
    services.game_invite(user=owner, game_id=game.pk, username=outsider.username)
    assert kinds_of(outsider) == ["invited"]
    assert texts_of(outsider) == [f"ana invited you to a table of Topology #{game.pk}."]
    assert [m.to for m in mail.outbox] == [[outsider.email]]
    assert f"https://topos.example/tables/{game.pk}/" in mail.outbox[0].body


def test_game_over_tells_every_player_the_results_once(owner, member):
    game = topology_table(owner, member)
    users = {0: owner, 1: member}
    while game.is_running:  # a whole game: every tile of the stack is placed (ruling L5)
        (seat,) = game.to_act
        game = play_turn(game, users[seat])
    assert game.status == Game.Status.FINISHED
    assert sorted(game.seats.values_list("rank", flat=True)) == [1, 2]  # ties are broken (ruling L7)
    for user in (owner, member):
        (text,) = words_of(Notification.objects.filter(recipient=user, kind="finished"))
        seat = game.seats.get(user=user)
        assert f"you placed {seat.rank} of 2 with {int(seat.score)} points" in text
        assert "ana (" in text and "bruno (" in text
    # a second dispatch (a retried task, the sweep) adds nothing and sends nothing
    sent = len(mail.outbox)
    GameEffects.objects.filter(game=game).update(version=0, status="running")
    assert game_effects_dispatch(game_id=game.pk) is True
    assert Notification.objects.filter(kind="finished").count() == 2
    assert len(mail.outbox) == sent


def test_the_same_event_is_never_mailed_twice_on_a_channel(owner, member):
    topology_table(owner, member)
    delivery = NotificationDelivery.objects.get(recipient=member)
    assert delivery.status == "sent" and delivery.attempts == 1
    from notifications.services import notification_create, notification_email_send

    assert notification_email_send(delivery_id=delivery.pk) is False
    assert notification_create(recipient=member, kind="started", key=delivery.key, text="again") is None
    assert len(mail.outbox) == 1
    assert NotificationDelivery.objects.filter(recipient=member).count() == 1

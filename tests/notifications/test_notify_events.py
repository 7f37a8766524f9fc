"""Events become notifications once per person, on commit only, with a link to the game (issue 5)."""
from __future__ import annotations

import pytest
from django.core import mail
from django.db import transaction

from games import services
from games.models import Action, Game, GameEffects, Notification, NotificationDelivery
from games.notifications.events import game_effects_dispatch
from tests.notifications.tables import kinds_of, play_turn, relay_table, texts_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_tells_the_others_that_the_table_started_and_whose_turn_it_is(relay, owner, member):
    game = relay_table(owner, member)
    # seat 0 (the owner) starts; she pressed start herself, so only the member hears of it
    assert kinds_of(member) == ["started"]
    assert kinds_of(owner) == []
    assert "Relay #%d" % game.pk in texts_of(member)[0]
    assert [m.to for m in mail.outbox] == [[member.email]]
    assert f"https://topos.example/tables/{game.pk}/" in mail.outbox[0].body


def test_it_tells_the_next_player_once_per_turn(relay, owner, member):
    game = relay_table(owner, member)
    game = play_turn(game, owner)
    assert kinds_of(member) == ["started", "your_turn"]
    note = Notification.objects.get(recipient=member, kind="your_turn")
    assert note.game_id == game.pk and "It is your turn at Relay" in note.text
    # her first decision of the turn tells nobody anything new; the turn is the same
    seat = game.seats.get(user=member).index
    services.action_submit(game_id=game.pk, user=member, action={"type": "play", "card": game.state["hands"][seat][0]},
                           expected_version=game.version)
    assert kinds_of(member) == ["started", "your_turn"]
    assert kinds_of(owner) == []
    game = Game.objects.get(pk=game.pk)
    services.action_submit(game_id=game.pk, user=member, action={"type": "end_turn"}, expected_version=game.version)
    assert kinds_of(owner) == ["your_turn"]
    email = mail.outbox[-1]
    assert email.to == [owner.email] and "Your turn at Relay" in email.subject
    assert f"https://topos.example/tables/{game.pk}/" in email.body


def test_a_rolled_back_move_tells_nobody_and_moves_no_bot(relay, owner, member):
    game = relay_table(owner, member)
    before = (Notification.objects.count(), len(mail.outbox), GameEffects.objects.get(game=game).version)
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            play_turn(game, owner)
            raise RuntimeError("the request failed after the move")
    assert (Notification.objects.count(), len(mail.outbox), GameEffects.objects.get(game=game).version) == before
    assert Action.objects.filter(game=game).count() == 0


def test_a_rolled_back_invitation_tells_nobody(relay, owner, member, outsider):
    game = relay_table(owner, member, start=False)
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            services.game_invite(user=owner, game_id=game.pk, username=outsider.username)
            raise RuntimeError("rolled back")
    assert kinds_of(outsider) == [] and mail.outbox == []
    services.game_invite(user=owner, game_id=game.pk, username=outsider.username)
    assert kinds_of(outsider) == ["invited"]
    assert texts_of(outsider) == [f"ana invited you to a table of Relay #{game.pk}."]
    assert [m.to for m in mail.outbox] == [[outsider.email]]
    assert f"https://topos.example/tables/{game.pk}/" in mail.outbox[0].body


def test_game_over_tells_every_player_the_results_once(relay, owner, member):
    game = relay_table(owner, member, rounds=1)
    play_turn(game, owner)
    game = play_turn(game, member)
    assert game.status == Game.Status.FINISHED
    for user in (owner, member):
        (text,) = Notification.objects.filter(recipient=user, kind="finished").values_list("text", flat=True)
        seat = game.seats.get(user=user)
        assert f"you placed {seat.rank} of 2" in text
        assert "ana (" in text and "bruno (" in text
    # a second dispatch (a retried task, the sweep) adds nothing and sends nothing
    sent = len(mail.outbox)
    GameEffects.objects.filter(game=game).update(version=0, status="running")
    assert game_effects_dispatch(game_id=game.pk) is True
    assert Notification.objects.filter(kind="finished").count() == 2
    assert len(mail.outbox) == sent


def test_the_same_event_is_never_mailed_twice_on_a_channel(relay, owner, member):
    relay_table(owner, member)
    delivery = NotificationDelivery.objects.get(recipient=member)
    assert delivery.status == "sent" and delivery.attempts == 1
    from games.notifications.services import notification_create, notification_email_send

    assert notification_email_send(delivery_id=delivery.pk) is False
    assert notification_create(recipient=member, kind="started", key=delivery.key, text="again") is None
    assert len(mail.outbox) == 1
    assert NotificationDelivery.objects.filter(recipient=member).count() == 1


def test_no_notification_text_reveals_a_hidden_card_or_the_seed(relay, owner, member, outsider):
    """Ruling G0.3: every text is checked, when it is written, against every card still in a hand."""
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks
    from games.notifications.events import reminders_send

    game = relay_table(owner, member, outsider, rounds=3)
    users = {0: owner, 1: member, 2: outsider}
    seen_notes, seen_mails, checked = 0, 0, 0

    def check():
        nonlocal seen_notes, seen_mails, checked
        fresh = Game.objects.get(pk=game.pk)
        hidden = {card for hand in fresh.state["hands"] for card in hand}
        notes = list(Notification.objects.filter(pk__gt=seen_notes).order_by("pk"))
        mails = mail.outbox[seen_mails:]
        for text in [n.text for n in notes] + [m.subject + m.body for m in mails]:
            assert fresh.seed not in text
            assert not [card for card in hidden if card in text], text
            checked += 1
        seen_notes = max([seen_notes] + [n.pk for n in notes])
        seen_mails = len(mail.outbox)

    check()
    while game.is_running:
        (seat,) = game.to_act
        if game.version == 6:  # a reminder, then a missed deadline played by the bot
            game.seats.filter(index=seat).update(deadline=timezone.now() + timedelta(minutes=30))
            assert reminders_send() == 1
            check()
            game.seats.filter(index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
            tasks.deadlines_sweep()
            game.refresh_from_db()
        else:
            game = play_turn(game, users[seat])
        check()
    kinds = set(Notification.objects.values_list("kind", flat=True))
    assert kinds == {"started", "your_turn", "deadline", "bot_played", "finished"}
    assert checked == Notification.objects.count() + len(mail.outbox)

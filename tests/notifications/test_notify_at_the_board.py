"""Acceptance for decision 9: a player at the board against a bot is neither mailed nor buried in notes (ruling S6)."""

from __future__ import annotations

import json

import pytest
from django.core import mail
from django.test import Client

from engine.core import get_game
from games.models import Game
from notifications.models import Notification
from tests.games.tables import dealt_with, pick, seed_for, time_comes, toppo_table

pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HTTP_HX_REQUEST": "true"}


def claim_at_the_page(page: Client, game: Game, seat: int) -> Game:
    """She makes her decision with the table page's own button (games/views/table.py table_act)."""
    state = get_game(game.kind).load(game.state)
    response = page.post(
        f"/tables/{game.pk}/act/", {"action": json.dumps(pick(game.kind, state, seat)), "version": game.version}, **HX
    )
    assert response.status_code == 200, response.content.decode()[:500]
    return Game.objects.get(pk=game.pk)


def test_forty_turns_against_a_bot_at_the_board_send_no_email_and_leave_one_unread_note(owner, settings):
    settings.TOPOS_TURN_MAIL_GRACE_SECONDS = 120  # ruling S6: her polls within the grace say she saw each turn
    # Toppo by correspondence: every round is a turn of each seat (ruling S1), so a game of three hands
    # against a bot gives her 40 turns and more (a two-player Topoum or Topology game ends in fewer).
    game = toppo_table(owner, bots=["greedy"], hands=3, start=False)
    page = Client()
    page.force_login(owner)
    assert page.get(f"/tables/{game.pk}/").status_code == 200  # the waiting room; she starts it from there
    with dealt_with(seed_for("toppo", 2, game.options)):
        assert page.post(f"/tables/{game.pk}/start/", **HX).status_code == 200
    game = Game.objects.get(pk=game.pk)
    turns = 0
    while turns < 40:
        assert game.is_running and 0 in game.to_act
        game = claim_at_the_page(page, game, 0)  # the bot has claimed already or does at once (celery_eager)
        turns += 1
        # her open page polls the table between her moves
        assert page.get(f"/tables/{game.pk}/poll/", {"stamp": "seen-before"}, **HX).status_code == 200
    assert game.state["hand"] > 0 or game.state["round"] >= 40  # 40 rounds were played, not one long round
    assert time_comes(121) == 0
    assert [(m.subject, m.body) for m in mail.outbox] == []
    assert Notification.objects.filter(recipient=owner, game=game, read_at__isnull=True).count() <= 1
    # each claim of hers marks her turn read (ruling S6): the next round's is a new note, never a second unread one
    assert Notification.objects.filter(recipient=owner, game=game, kind="your_turn", read_at__isnull=True).count() <= 1

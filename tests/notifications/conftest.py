"""Fixtures for the notification, deadline and bot-task tests: the Relay game and in-process Celery."""
from __future__ import annotations

import pytest

from config.celery import app
from games import services
from games.models import Game

from tests.notifications.relay_game import install


@pytest.fixture
def relay(monkeypatch):
    return install(monkeypatch)


@pytest.fixture(autouse=True)
def celery_in_process(settings):
    """The embedded default, whatever the environment says: tasks run inline, bots answer at once."""
    saved = app.conf.task_always_eager
    app.conf.task_always_eager = True
    settings.TOPOS_BOT_DELAY_SCALE = 0
    yield
    app.conf.task_always_eager = saved


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = "https://topos.example"


def relay_table(owner, *others, bots=(), start=True, **options) -> Game:
    """A Relay table: `owner` in seat 0, then `others`, then `bots`; started unless told otherwise."""
    players = 1 + len(others) + len(bots)
    game = services.game_create(user=owner, kind="relay", players=players, options=options, bots=list(bots))
    for user in others:
        services.game_join(user=user, game_id=game.pk)
    if start:
        game = services.game_start(user=owner, game_id=game.pk)
    return Game.objects.get(pk=game.pk)


def play_turn(game: Game, user) -> Game:
    """`user` plays her first card and confirms (two decisions, one turn)."""
    game = Game.objects.get(pk=game.pk)
    seat = game.seats.get(user=user).index
    hand = game.state["hands"][seat]
    services.action_submit(game_id=game.pk, user=user, action={"type": "play", "card": hand[0]},
                           expected_version=game.version)
    game.refresh_from_db()
    if not game.state["together"] and game.is_running:
        services.action_submit(game_id=game.pk, user=user, action={"type": "end_turn"},
                               expected_version=game.version)
        game.refresh_from_db()
    return game


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    # Personas are created with a password; the real hasher is slow and nothing here tests it.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def texts_of(user) -> list[str]:
    from games.models import Notification

    return list(Notification.objects.filter(recipient=user).order_by("pk").values_list("text", flat=True))


def kinds_of(user) -> list[str]:
    from games.models import Notification

    return list(Notification.objects.filter(recipient=user).order_by("pk").values_list("kind", flat=True))

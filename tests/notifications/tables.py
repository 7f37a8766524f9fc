"""Helpers for tests with Relay tables: open and start one, play a turn, read what people were told."""
from __future__ import annotations

from games import services
from games.models import Game, Notification


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


def texts_of(user) -> list[str]:
    return list(Notification.objects.filter(recipient=user).order_by("pk").values_list("text", flat=True))


def kinds_of(user) -> list[str]:
    return list(Notification.objects.filter(recipient=user).order_by("pk").values_list("kind", flat=True))

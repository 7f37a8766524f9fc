"""Small helpers for the web tests."""

from __future__ import annotations

import json

from games import services
from games.models import Game
from games.selectors.positions import load_state


def started_topology(owner, member, **options) -> Game:
    game = services.game_create(user=owner, kind="topology", players=2, options=options)
    services.game_join(user=member, game_id=game.pk)
    return services.game_start(user=owner, game_id=game.pk)


def seat_client(game: Game, clients: dict, seat: int):
    """The client of the user sitting at `seat` (clients keyed by user pk)."""
    return clients[game.seats.get(index=seat).user_id]


def legal(game: Game, seat: int) -> list[dict]:
    game.refresh_from_db()
    return load_state(game).legal_actions(seat)


def post_action(client, game: Game, action: dict, version: int, **extra):
    return client.post(f"/tables/{game.pk}/act/", {"action": json.dumps(action), "version": version}, **extra)

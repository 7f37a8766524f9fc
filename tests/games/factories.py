"""Small builders for games in tests."""
from games import services
from games.models import Game


def started_topology(owner, member, **options) -> Game:
    game = services.game_create(user=owner, kind="topology", players=2, options=options)
    services.game_join(user=member, game_id=game.pk)
    return services.game_start(user=owner, game_id=game.pk)


def seat_user(game: Game, seat: int):
    return game.seats.get(index=seat).user

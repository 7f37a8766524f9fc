"""Small builders for games in tests."""

from games import services
from games.models import Game


def started_topology(owner, member, **options) -> Game:
    game = services.game_create(user=owner, kind="topology", players=2, options=options)
    services.game_join(user=member, game_id=game.pk)
    return services.game_start(user=owner, game_id=game.pk)


def seat_user(game: Game, seat: int):
    return game.seats.get(index=seat).user


def open_topology(owner, *others, players: int = 3, **kwargs) -> Game:
    """A table that has not started: `owner` in seat 0, `others` seated after her."""
    game = services.game_create(user=owner, kind="topology", players=players, **kwargs)
    for user in others:
        services.game_join(user=user, game_id=game.pk, invite_code=game.invite_code)
    return Game.objects.get(pk=game.pk)


def table_snapshot(game: Game) -> tuple:
    """What a refused write must leave as it was: the row's state and version, who sits where, who is invited,
    and the log."""
    game = Game.objects.get(pk=game.pk)
    seats = sorted(game.seats.values_list("index", "user_id", "bot_level", "abandoned"))
    invited = sorted(game.invitations.values_list("user_id", flat=True))
    return (game.status, game.version, game.state, game.to_act, game.rated, seats, invited, game.actions.count())


def assert_refused(game: Game, send, status: int, words: str = "") -> None:
    """`send()`, a request about `game`, is refused with `status` and a detail holding `words`, and changes nothing."""
    before = table_snapshot(game)
    reply = send()
    assert reply.status_code == status, reply.data
    assert words in str(reply.data.get("detail", "")), reply.data
    assert table_snapshot(game) == before

"""Builders for the rating tests: people at a table, a game played to its end with the services."""

from __future__ import annotations

from openskill.models import PlackettLuce

from accounts.services import user_create
from games import services
from games.models import Game
from tests.games.test_replay import play


def people(*names):
    return [user_create(username=n, email=f"{n}@example.com", password="a-long-test-password") for n in names]


def table_of(
    users,
    kind: str = "topology",
    *,
    rated: bool = True,
    pace: str = "correspondence",
    turn_seconds: int | None = None,
    **options,
) -> Game:
    """A started table of `users` (the first opens it), not played yet."""
    game = services.game_create(
        user=users[0], kind=kind, players=len(users), options=options, rated=rated, pace=pace, turn_seconds=turn_seconds
    )
    for user in users[1:]:
        services.game_join(user=user, game_id=game.pk)
    return services.game_start(user=users[0], game_id=game.pk)


def played(users, kind: str = "topology", **options) -> Game:
    """A game of `users` played to its end by random legal moves (Topology, the shortest, unless told otherwise)."""
    if kind == "toppo":
        options.setdefault("hands", 1)
    game = play(table_of(users, kind, **options))
    assert game.status == Game.Status.FINISHED
    return game


def expected_after(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """OpenSkill's own Plackett-Luce answer, asked directly (not through the site's code)."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=ranks)]

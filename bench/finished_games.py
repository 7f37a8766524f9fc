"""Players and two-player tables stored in bulk (bulk_create, no services), for the benchmarks that read many games.

Each table is what the site would have left: seat 0 opened it, a finished one has ranks, scores and sometimes a
player who left, an ended one (finished or aborted) its end time, a running one somebody to act.  Django must be
set up first (the benchmarks do it before importing this).
"""

from __future__ import annotations

import random

from django.db import connection
from django.utils import timezone

from accounts.models import User
from games.models import Game, Seat
from games.services.player_summaries import player_summaries_rebuild

KINDS = ("topology", "topoum", "toppo")
BATCH = 5000
ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)


def add_people(start: int, stop: int) -> list[int]:
    """Players p<start> to p<stop - 1>; the ids of every p-player stored so far."""
    User.objects.bulk_create(
        [User(username=f"p{i}", email=f"p{i}@example.com", password="!") for i in range(start, stop)], batch_size=BATCH
    )
    return list(User.objects.filter(username__startswith="p").values_list("pk", flat=True))


def add_two_player_tables(plan: list[tuple[str, int, int]], rng: random.Random) -> None:
    """A table of each (status, first, second) in `plan` (user ids; an open table seats only the first), of a random
    game, private 3 times in 10, ended within the last two years (10**6 minutes); each player of a finished one
    wins half the time, and 1 in 10 of them was left by its loser."""
    now = timezone.now()
    for chunk in range(0, len(plan), BATCH):
        part = plan[chunk : chunk + BATCH]
        games = Game.objects.bulk_create(
            [
                Game(
                    kind=rng.choice(KINDS),
                    players=2,
                    turn_seconds=86400,
                    created_by_id=first,
                    status=status,
                    private=rng.random() < 0.3,
                    invite_code=f"g{rng.getrandbits(60):x}",
                    finished_at=now - timezone.timedelta(minutes=rng.randint(0, 10**6)) if status in ENDED else None,
                    to_act=[rng.randint(0, 1)] if status == Game.Status.RUNNING else [],
                )
                for status, first, _ in part
            ],
            batch_size=BATCH,
        )
        seats = []
        for game, (status, first, second) in zip(games, part):
            done = status == Game.Status.FINISHED
            first_won, left = rng.random() < 0.5, done and rng.random() < 0.1
            for index, user, won in ((0, first, first_won), (1, second, not first_won)):
                if status == Game.Status.OPEN and index == 1:
                    continue
                seats.append(
                    Seat(
                        game=game,
                        index=index,
                        user_id=user,
                        rank=(1 if won else 2) if done else None,
                        score=rng.randint(0, 80) if done else None,
                        abandoned=left and not won,
                    )
                )
        Seat.objects.bulk_create(seats, batch_size=BATCH)


def settle() -> None:
    """After filling: the players' summaries built from their seats (as games ending keep them, decision 16), and the
    planner's statistics of every table fresh."""
    player_summaries_rebuild()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")

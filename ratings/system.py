"""The rating system of ruling S5: OpenSkill's Plackett-Luce model, the number people see, the provisional mark.

Everyone starts at the model's own prior (mu 25, sigma 25/3).  The number shown and sorted by is the
conservative estimate mu - 3 sigma (OpenSkill's "ordinal"), scaled so that a newcomer shows 1500: it
grows as the site becomes surer of a player, which is why a newcomer's first games move it most.
"""

from __future__ import annotations

import math

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
ORIGIN, SCALE = 1500, 40
# A rating is marked provisional ("1520?") until this many rated games in its key.
PROVISIONAL_GAMES = 5


def shown_value(mu: float, sigma: float) -> int:
    """The rating as a whole number (half rounds up, the same on every machine)."""
    return int(math.floor(ORIGIN + SCALE * (mu - 3 * sigma) + 0.5))


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def rate(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each player of one game from the old ones and the final ranks (ties share a rank)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    return [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=list(ranks))]

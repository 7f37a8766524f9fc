"""Reads of ratings: the leaderboards (keyset pages), a player's ratings, the ratings beside names, a game's changes.

A leaderboard page is a range of the `rating_leaderboard` index, found from the last row of the page
before (its rating and user id, the cursor), never by counting or skipping the rows ahead: page 2,000
costs what page 1 costs.  The cursor also carries the place of that row, which numbers the next page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Q, Subquery

from games.models import Game

from . import system
from .keys import key_label, rating_key, rating_keys
from .models import Rating, RatingChange

PAGE_SIZE = 50
MAX_PAGE_SIZE = 100


def badge(value: int, games: int) -> dict:
    """A rating as shown beside a name: {"value": 1520, "provisional": True, "games": 2}."""
    return {"value": value, "provisional": system.is_provisional(games), "games": games}


NEWCOMER = badge(system.shown_value(system.MU, system.SIGMA), 0)


def rating_badge(rating: Rating | None) -> dict:
    """Her rating in a key; a newcomer's (the prior's, provisional) when she has no rated game there yet."""
    return badge(rating.value, rating.games) if rating is not None else dict(NEWCOMER)


# --- the ratings beside names ---------------------------------------------------------------------------------
def prefetch_seat_ratings(games) -> None:
    """Look up the ratings of every person seated at `games` in one query (for lists of tables)."""
    games = list(games)
    pairs = {(s.user_id, rating_key(g.kind, g.pace)) for g in games for s in g.seats.all() if s.user_id}
    found = {}
    if pairs:
        rows = Rating.objects.filter(user_id__in={u for u, _ in pairs}, key__in={k for _, k in pairs})
        found = {(r.user_id, r.key): r for r in rows.only("user_id", "key", "value", "games")}
    for game in games:
        key = rating_key(game.kind, game.pace)
        game._seat_ratings = {s.user_id: found.get((s.user_id, key)) for s in game.seats.all() if s.user_id}


def rating_annotations(game: Game) -> dict:
    """Annotations for a query of `game`'s seats: each person's rating value and games in the game's key, so the
    ratings come with the seats in one query (a move's answer, decision 16); keep_annotated_ratings reads them."""
    hers = Rating.objects.filter(user_id=OuterRef("user_id"), key=rating_key(game.kind, game.pace))
    return {"rating_value": Subquery(hers.values("value")[:1]), "rating_games": Subquery(hers.values("games")[:1])}


def keep_annotated_ratings(game: Game) -> None:
    """What prefetch_seat_ratings would find, from seats read with rating_annotations (no rating: a newcomer)."""
    key = rating_key(game.kind, game.pace)
    game._seat_ratings = {
        s.user_id: None
        if s.rating_value is None
        else Rating(user_id=s.user_id, key=key, value=s.rating_value, games=s.rating_games)
        for s in game.seats.all()
        if s.user_id
    }


def forget_seat_ratings(game: Game) -> None:
    """The ratings kept on `game` are stale (the game was just rated): seat_ratings reads them again."""
    game.__dict__.pop("_seat_ratings", None)


def seat_ratings(game: Game) -> dict[int, dict]:
    """Seat index -> the rating badge of the person there, in the game's key (bots have none)."""
    if not hasattr(game, "_seat_ratings"):
        prefetch_seat_ratings([game])
    return {s.index: rating_badge(game._seat_ratings.get(s.user_id)) for s in game.seats.all() if s.user_id}


# --- a player's ratings and a game's changes ------------------------------------------------------------------
def ratings_of_user(user) -> list[dict]:
    """Every rating she has (one indexed lookup): key, value, provisional mark, games, mu and sigma."""
    rows = Rating.objects.filter(user=user).order_by("key")
    return [
        {
            "key": r.key,
            "rating": r.value,
            "provisional": system.is_provisional(r.games),
            "games": r.games,
            "mu": r.mu,
            "sigma": r.sigma,
            "updated_at": r.updated_at.isoformat(),
        }
        for r in rows
    ]


def rating_changes_of_game(game: Game) -> dict[int, dict]:
    """User id -> what the game did to her rating: before and after (with their provisional marks), the delta."""
    out = {}
    for c in RatingChange.objects.filter(game=game):
        out[c.user_id] = {
            "before": badge(c.value_before, c.games_before),
            "after": badge(c.value_after, c.games_before + 1),
            "delta": c.delta,
            "key": c.key,
        }
    return out


# --- leaderboards ---------------------------------------------------------------------------------------------
class BadCursor(ValueError):
    pass


@dataclass(frozen=True)
class Cursor:
    """A row of a leaderboard: its rating, its user id and its place (1 for the top)."""

    value: int
    user_id: int
    place: int

    def __str__(self) -> str:
        return f"{self.value}_{self.user_id}_{self.place}"

    @classmethod
    def parse(cls, text: str) -> Cursor:
        try:
            value, user_id, place = (int(part) for part in text.split("_"))
        except ValueError:
            raise BadCursor(text) from None
        if user_id < 1 or place < 1:
            raise BadCursor(text)
        return cls(value, user_id, place)


@dataclass
class LeaderboardPage:
    key: str
    rows: list[dict]
    next: Cursor | None  # pass as `after` for the next page
    previous: Cursor | None  # pass as `before` for the page before


def _row(rating: Rating, place: int) -> dict:
    return {
        "rank": place,
        "player": rating.user.username,
        "rating": rating.value,
        "provisional": system.is_provisional(rating.games),
        "games": rating.games,
    }


def leaderboard(
    key: str, *, after: Cursor | None = None, before: Cursor | None = None, size: int = PAGE_SIZE
) -> LeaderboardPage:
    """One page of a leaderboard: the best rating first, ties by the older account; players with a rated game."""
    qs = Rating.objects.filter(key=key).select_related("user").only("value", "games", "user_id", "user__username")
    if before is not None:
        # The rows just above `before`, read upwards through the index, then turned the right way up.
        above = Q(value__gt=before.value) | Q(value=before.value, user_id__lt=before.user_id)
        got = list(qs.filter(above, value__gte=before.value).order_by("value", "-user_id")[: size + 1])
        more_above = len(got) > size
        got = list(reversed(got[:size]))
        first = max(1, before.place - len(got)) if more_above else 1
        rows = [_row(r, first + i) for i, r in enumerate(got)]
        previous = _cursor(got[0], rows[0]) if more_above and rows else None
        following = _cursor(got[-1], rows[-1]) if rows else None
        return LeaderboardPage(key, rows, following, previous)
    if after is not None:
        below = Q(value__lt=after.value) | Q(value=after.value, user_id__gt=after.user_id)
        qs = qs.filter(below, value__lte=after.value)  # the second condition lets the index seek to the cursor
    got = list(qs.order_by("-value", "user_id")[: size + 1])
    more_below = len(got) > size
    got = got[:size]
    first = after.place + 1 if after is not None else 1
    rows = [_row(r, first + i) for i, r in enumerate(got)]
    following = _cursor(got[-1], rows[-1]) if more_below else None
    previous = _cursor(got[0], rows[0]) if after is not None and rows else None
    return LeaderboardPage(key, rows, following, previous)


def _cursor(rating: Rating, row: dict) -> Cursor:
    return Cursor(rating.value, rating.user_id, row["rank"])


def rating_histories(user) -> list[dict]:
    """Her ratings, each with its history: the number shown after every rated game, oldest first.

    For a player's page and its API answer.  Only values and dates: which game moved it is left
    out, since a private table must not show on the page of someone one may not see it with.
    """
    current = {r.key: r for r in Rating.objects.filter(user=user)}
    rows = (
        RatingChange.objects.filter(user=user)
        .order_by("key", "id")
        .values_list("key", "value_before", "value_after", "created_at")
    )
    histories: dict[str, dict] = {}
    for key, before, after, at in rows:
        entry = histories.setdefault(key, {"key": key, "label": key_label(key), "start": before, "history": []})
        entry["history"].append({"rating": after, "at": at.isoformat()})
    ordered = []
    for key in rating_keys():
        if key in histories and key in current:
            rating = current[key]
            ordered.append({**histories[key], **rating_badge(rating)})
    return ordered

"""Ratings (ruling S5): one per player and rating key, each change kept per game, and the order games were rated.

A rating is a pure function of the finished rated games taken in the order they were rated, so
everything here can be wiped and rebuilt (`manage.py recompute_ratings`) to the same numbers.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RatedGame(models.Model):
    """A finished rated game, numbered in the order its ratings were applied: the order a recompute replays.

    The row is written after the players' Rating rows are locked (ratings.services.game_rate), so two
    games sharing a player get their numbers in the order they changed her rating, whatever their clocks
    said; games sharing nobody do not affect each other.  A recompute keeps these rows.
    """

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rated_as")
    key = models.CharField(max_length=40, help_text="The rating it changes (ratings.keys.rating_key).")
    rated_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"rated game {self.id}: {self.game_id} ({self.key})"


class Rating(models.Model):
    """One player's OpenSkill (Plackett-Luce) rating in one key; `value` is what pages show and sort by."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    key = models.CharField(
        max_length=40, help_text="ratings.keys.rating_key: a game's name, and its pace for a game played at several."
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    value = models.IntegerField(help_text="The shown rating: the conservative estimate mu - 3 sigma, scaled.")
    games = models.PositiveIntegerField(default=0, help_text="Rated games played in this key.")
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="rating_unique_user_key")]
        # The leaderboard's order, read as a range of this index from any place (keyset pages).
        indexes = [models.Index(fields=["key", "-value", "user"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.key}: {self.value}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: the finished page's "+12", a profile's history.

    Read a player's history as RatingChange.objects.filter(user=..., key=...).order_by("id").
    """

    rated_game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="changes")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    key = models.CharField(max_length=40)
    rank = models.PositiveSmallIntegerField(help_text="Her final rank in the game (ruling S1).")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    value_before = models.IntegerField()
    games_before = models.PositiveIntegerField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    value_after = models.IntegerField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="rating_change_once_per_game")]
        indexes = [models.Index(fields=["user", "key", "id"], name="rating_change_history")]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}: {self.value_before} -> {self.value_after}"

    @property
    def delta(self) -> int:
        return self.value_after - self.value_before

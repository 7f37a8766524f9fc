"""Round-robin tournaments: who entered, and the tables they play (docs/tournaments.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from games.models import Game


class Tournament(models.Model):
    class Status(models.TextChoices):
        REGISTERING = "registering", "Registration open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, help_text="Registry name of the game (engine.core.all_games()).")
    players = models.PositiveSmallIntegerField(help_text="Players at each table.")
    options = models.JSONField(default=dict, blank=True, help_text="The tables' options, as the engine checked them.")
    turn_seconds = models.PositiveIntegerField(help_text="Each table's clock of one turn (correspondence, ruling S1).")
    time_bank_days = models.PositiveSmallIntegerField(default=0, help_text="Each seat's time bank (ruling S4).")
    rated = models.BooleanField(default=True, help_text="Its tables are rated (ruling S5).")
    double = models.BooleanField(
        default=False, help_text="Two-player tables: every pair meets twice, once in each seat."
    )
    starts_at = models.DateTimeField(help_text="Registration closes and the tables are dealt then.")
    min_entrants = models.PositiveSmallIntegerField()
    max_entrants = models.PositiveSmallIntegerField()
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournaments_organised"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTERING, db_index=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="tournaments_won"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(condition=Q(max_entrants__gte=F("min_entrants")), name="tournament_entrants_range"),
        ]
        # The beat sweep: tournaments due to start, and those running.
        indexes = [models.Index(fields=["status", "starts_at"], name="tournament_due")]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind}) #{self.pk}"

    @property
    def is_registering(self) -> bool:
        return self.status == self.Status.REGISTERING


class Entrant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    registered_at = models.DateTimeField(auto_now_add=True)
    number = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Drawn at the start: her place in the pairing scheme."
    )

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="entrant_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} in {self.tournament_id}"


class TournamentTable(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="tournament_table")
    number = models.PositiveSmallIntegerField(help_text="1, 2, 3 ... in the order the tables were dealt.")

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="tournament_table_number")]

    def __str__(self) -> str:
        return f"table {self.number} of {self.tournament_id}"

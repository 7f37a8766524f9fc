"""A tournament's table that ends settles its tournament: a task after the commit (never in the request).

A signal, so the games' own code needs no knowledge of tournaments.  If the task is lost (broker down),
the beat sweep (tasks.tournaments_sweep) settles the tournament a minute later all the same.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from config.celery import enqueue
from games.models import Game

ENDED = (Game.Status.FINISHED, Game.Status.ABORTED)


@receiver(post_save, sender=Game, dispatch_uid="tournament_table_ended")
def tournament_table_ended(sender, instance: Game, update_fields=None, **kwargs):
    if instance.status not in ENDED or (update_fields is not None and "status" not in update_fields):
        return
    from .models import TournamentTable

    tournament_id = TournamentTable.objects.filter(game_id=instance.pk).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        return
    transaction.on_commit(lambda: enqueue("games.tournaments.tasks.tournament_settle", tournament_id))

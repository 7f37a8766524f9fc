"""Rebuild every rating from the finished rated games, in the order they were rated (ruling S5)."""
from django.core.management.base import BaseCommand

from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Wipe all ratings and replay every finished rated game in the order it finished: the same numbers."

    def handle(self, *args, **options):
        done = ratings_recompute()
        self.stdout.write(f"Replayed {done.games} rated games: {done.players} players rated.")
        if done.recorded:
            self.stdout.write(f"{done.recorded} finished rated games had not been rated yet; they were rated "
                              "after the others.")

"""Rebuild every rating from the finished rated games, in the order they were rated (ruling S5)."""

from django.core.management.base import BaseCommand

from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Wipe all ratings and replay every finished rated game in the order it finished: the same numbers."

    def add_arguments(self, parser):
        parser.add_argument(
            "--from-logs",
            action="store_true",
            help="Re-run every game's seed and log for its final ranks instead of reading the "
            "published ones (slow), and name the games where they differ.",
        )

    def handle(self, *args, **options):
        done = ratings_recompute(from_logs=options["from_logs"])
        self.stdout.write(f"Replayed {done.games} rated games: {done.players} players rated.")
        if done.recorded:
            self.stdout.write(
                f"{done.recorded} finished rated games had not been rated yet; they were rated after the others."
            )
        if done.differing:
            self.stdout.write(
                f"The published ranks differ from the replayed log in games "
                f"{', '.join(map(str, done.differing))}; their logs' ranks were used."
            )
        elif options["from_logs"]:
            self.stdout.write("Every published ranking matches its replayed log.")

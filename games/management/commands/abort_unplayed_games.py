"""Ruling S1, turn 3, for the games that ended before it: a game a seat left before every seat had played is aborted."""

from django.core.management.base import BaseCommand

from games.services.aborting import games_unplayed_abort


class Command(BaseCommand):
    help = (
        "Find the finished games in which a seat resigned or abandoned before every seat had completed a turn of its "
        "own (ruling S1, turn 3); with --apply, make them aborted games (no ranks, not rated) and rebuild every "
        "rating and player's statistics from the games that remain."
    )

    def add_arguments(self, parser):
        parser.add_argument("--apply", action="store_true", help="Write the change (without it: only list them).")

    def handle(self, *args, **options):
        done = games_unplayed_abort(apply=options["apply"])
        if not done.games:
            self.stdout.write("No finished game was left before every seat had played: nothing to correct.")
            return
        listed = ", ".join(map(str, done.games))
        if done.applied:
            self.stdout.write(
                f"Aborted {len(done.games)} games (ruling S1, turn 3): {listed}. Ratings and statistics rebuilt."
            )
        else:
            self.stdout.write(f"{len(done.games)} games would be aborted: {listed}. Run again with --apply.")

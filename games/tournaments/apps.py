from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Round-robin tournaments (issue 17, point 5): a Django app of its own inside games."""

    name = "games.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import receivers  # noqa: F401  (a tournament table that ends settles its tournament)

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Round-robin tournaments (decision 17, point 5): an app of its own, after chat in the apps' order.

    Once a package inside games: the label stayed "tournaments", so its migrations and its tables are the same."""

    name = "tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import receivers  # noqa: F401  (a tournament table that ends settles its tournament)

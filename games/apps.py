from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Ruling S8: what the games side adds to her data export and to deleting her account.
        from accounts import profile_parts

        from . import account_data  # noqa: F401
        from .views.players import profile_part

        # Her tables and her vacation on her profile page: accounts imports no later app (docs/architecture.md).
        profile_parts.part(profile_part)

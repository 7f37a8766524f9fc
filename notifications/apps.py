from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Notifications (decision 5): an app of its own, after games and feed in the app order, owning its models
    (decision 15).  The label stays "notifications", so its migrations and tables are the ones it always had."""

    name = "notifications"
    label = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # games calls its hooks (games.hooks) where a move, a start or an invitation must be told: these answer.
        from . import receivers

        receivers.connect()
        # Ruling S8: what notifications adds to her data export and to deleting her account.
        from . import account_data  # noqa: F401

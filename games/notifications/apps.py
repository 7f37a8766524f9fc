from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    """Notifications (issue 5): an app of its own inside games, owning its models (issue 15)."""

    name = "games.notifications"
    label = "notifications"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

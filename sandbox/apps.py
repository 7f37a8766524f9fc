from django.apps import AppConfig


class SandboxConfig(AppConfig):
    """Decision 29, point 1: try lines from one's own seat on a copy of the game sampled from her view."""

    name = "sandbox"
    verbose_name = "Sandboxes"
    default_auto_field = "django.db.models.BigAutoField"

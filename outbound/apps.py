from django.apps import AppConfig


class OutboundConfig(AppConfig):
    """Web Push and webhooks (decision 29): channels registered with the notifications app."""

    name = "outbound"
    verbose_name = "Push and webhooks"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from .services import register_channels

        register_channels()

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Games never imports ratings (docs/architecture.md, the apps' order): it calls these by hook name.
        from games import hooks

        from .receivers import RECEIVERS

        for name, receiver in RECEIVERS.items():
            getattr(hooks, name).connect(receiver)

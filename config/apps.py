from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site itself, beside the games and accounts apps: its deploy checks, its error pages, its favicon."""

    name = "config"
    verbose_name = "Site"

    def ready(self):
        from . import checks  # noqa: F401  (registers the deploy checks)

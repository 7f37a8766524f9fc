from django.apps import AppConfig


class BoardConfig(AppConfig):
    """Topoum's home on the site side: an app only so that its templates and static files live in its own folder."""

    name = "boards.topoum"
    label = "board_topoum"

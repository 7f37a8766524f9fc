from django.apps import AppConfig


class BoardConfig(AppConfig):
    """Topology's home on the site side: an app only so that its templates and static files live in its own folder."""

    name = "boards.topology"
    label = "board_topology"

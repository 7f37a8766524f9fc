from django.apps import AppConfig


class BoardConfig(AppConfig):
    """Toppo's home on the site side: an app only so that its templates and static files live in its own folder."""

    name = "boards.toppo"
    label = "board_toppo"

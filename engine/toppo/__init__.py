"""Toppo: the real-time card game at live or correspondence pace (rulings P1-P6).

Importing the package registers the game under the name "toppo".
"""

from .game import ToppoGame, ToppoState  # noqa: F401  (registers the game)

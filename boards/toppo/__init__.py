"""Toppo's site side: its presenter, words, diagrams, templates (templates/boards/toppo/) and static files
(static/boards/toppo/), found through boards.registry."""

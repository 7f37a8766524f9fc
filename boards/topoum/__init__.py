"""Topoum's site side: its presenter, words, diagrams, templates (templates/boards/topoum/) and static files
(static/boards/topoum/), found through boards.registry."""

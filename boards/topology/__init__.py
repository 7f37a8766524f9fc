"""Topology's site side: its presenter, words, diagrams, templates (templates/boards/topology/) and static files
(static/boards/topology/), found through boards.registry."""

"""Imported by the integration tests' Celery worker (`-I tests.integration.worker_games`): registers Relay."""
from engine.core import register

from tests.notifications.relay_game import RelayGame

register(RelayGame)

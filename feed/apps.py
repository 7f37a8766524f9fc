from django.apps import AppConfig


class FeedConfig(AppConfig):
    """The event feed and its streams (decision 12, point 2): after games in the app order, before notifications."""

    name = "feed"
    verbose_name = "Event feed"

    def ready(self):
        # games nudges the streams and records presence through its hooks (games.hooks): these answer.
        from . import receivers

        receivers.connect()
        # Ruling S8: what the feed adds to deleting her account.
        from . import account_data  # noqa: F401

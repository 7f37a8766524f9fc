from django.apps import AppConfig


class MonitoringConfig(AppConfig):
    name = "config.monitoring"
    label = "monitoring"  # its tables and migrations keep the short name
    verbose_name = "Monitoring"

    def ready(self):
        # Connect the Celery signals in every process that sets Django up: web, worker and beat.
        from . import heartbeats, logs, workers  # noqa: F401

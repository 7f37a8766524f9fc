"""The Celery application.

With REDIS_URL set, Redis is broker and result store and a worker plus beat run the
tasks.  Without it (the embedded default) tasks run eagerly in the calling process,
so one command still gives a complete site.
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("topos")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

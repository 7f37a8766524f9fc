"""The event feed's API (decision 12, point 2), under /api/ (config/urls.py); its names and paths as they were."""

from django.urls import path

from . import api

urlpatterns = [
    path("events/", api.EventListView.as_view(), name="api-events"),
    path("events/stream/", api.EventStreamView.as_view(), name="api-events-stream"),
    path("tables/<int:pk>/stream/", api.TableStreamView.as_view(), name="api-table-stream"),
]

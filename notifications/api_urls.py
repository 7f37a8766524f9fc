"""The notifications' API (decision 12, point 4), under /api/ (config/urls.py); its names and paths as they were."""

from django.urls import path

from . import api

urlpatterns = [
    path(
        "me/notification-preferences/",
        api.NotificationPreferencesView.as_view(),
        name="api-my-notification-preferences",
    ),
    path("notifications/", api.NotificationListView.as_view(), name="api-notifications"),
    path("notifications/read-all/", api.NotificationReadAllView.as_view(), name="api-notifications-read-all"),
    path("notifications/<int:pk>/read/", api.NotificationReadView.as_view(), name="api-notification-read"),
]

"""Mounted at /accounts/notifications/ (config/urls.py), beside the notification settings page."""

from django.urls import path

from . import views

urlpatterns = [
    path("push/", views.push_events, name="push_events"),
    path("push/<int:pk>/delete/", views.push_device_delete, name="push_device_delete"),
    path("webhooks/", views.webhooks, name="webhooks"),
    path("webhooks/<int:pk>/", views.webhook_update, name="webhook_update"),
    path("webhooks/<int:pk>/secret/", views.webhook_new_secret, name="webhook_new_secret"),
    path("webhooks/<int:pk>/delete/", views.webhook_delete, name="webhook_delete"),
    path("webhooks/<int:pk>/test/", views.webhook_test, name="webhook_test"),
]

"""Mounted at /accounts/notifications/ (config/urls.py): the email settings page."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.notification_settings, name="notification_settings"),
]

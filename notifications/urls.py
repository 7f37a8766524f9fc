"""Mounted at /notifications/ (config/urls.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.notification_list, name="notifications"),
    path("read-all/", views.notifications_read_all, name="notifications_read_all"),
    path("<int:pk>/read/", views.notification_read, name="notification_read"),
    path("<int:pk>/open/", views.notification_open, name="notification_open"),
]

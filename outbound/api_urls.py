"""Mounted at /api/ (config/urls.py): push and webhooks (decision 29), outbound/api.py."""

from django.urls import path

from . import api

urlpatterns = [
    path("me/push/", api.PushView.as_view(), name="api-my-push"),
    path("me/push/subscriptions/", api.PushSubscriptionsView.as_view(), name="api-my-push-subscriptions"),
    path("me/push/subscriptions/<int:pk>/", api.PushSubscriptionView.as_view(), name="api-my-push-subscription"),
    path("me/webhooks/", api.WebhooksView.as_view(), name="api-my-webhooks"),
    path("me/webhooks/<int:pk>/", api.WebhookView.as_view(), name="api-my-webhook"),
    path("me/webhooks/<int:pk>/test/", api.WebhookTestView.as_view(), name="api-my-webhook-test"),
    path("me/webhooks/<int:pk>/deliveries/", api.WebhookDeliveriesView.as_view(), name="api-my-webhook-deliveries"),
]

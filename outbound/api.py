"""Push and webhooks through the API (decision 29): everything the settings pages do.

GET, PATCH  /api/me/push/                         the site's VAPID key, her devices, the events she wants pushed
GET, POST   /api/me/push/subscriptions/           her devices; register one (PushSubscription.toJSON())
DELETE      /api/me/push/subscriptions/{id}/      forget one
GET, POST   /api/me/webhooks/                     her endpoints; add one
GET, PATCH, DELETE /api/me/webhooks/{id}/         one endpoint
POST        /api/me/webhooks/{id}/test/           send a test event
GET         /api/me/webhooks/{id}/deliveries/     the delivery log: status, attempts, last error
"""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import error_response
from games.api.own import BODY_PARSERS, SIGNED_OUT, SIGNED_OUT_WRITE
from games.api.responses import error
from games.errors import ServiceError
from notifications.models import NotificationEvent

from . import services, vapid
from .models import PushSubscription, WebhookDelivery, WebhookEndpoint

EVENTS_HELP = "The kinds of notification sent this way (the `kind` of GET /api/notifications/)."
# One enum each in the schema (config/settings.py, ENUM_NAME_OVERRIDES).
FORMAT_VALUES = WebhookEndpoint.Format.values
DELIVERY_STATUS_VALUES = WebhookDelivery.Status.values
LOG_SIZE = 50
# http(s) only, said in the schema too (its `pattern`); whether the host is public is known only after DNS.
HTTP_ONLY = RegexValidator(r"^[Hh][Tt][Tt][Pp][Ss]?://", _lazy("Only http:// and https:// addresses can be used."))


def _events_field(**kwargs):
    return serializers.ListField(child=serializers.ChoiceField(choices=NotificationEvent.values), **kwargs)


class PushSubscriptionOut(serializers.Serializer):
    id = serializers.IntegerField()
    endpoint = serializers.CharField(help_text="Her browser's push service address.")
    user_agent = serializers.CharField(help_text="The browser, as it said when it registered.")
    created_at = serializers.DateTimeField()
    last_success_at = serializers.DateTimeField(allow_null=True, help_text="The last push its service took.")
    last_error = serializers.CharField(help_text="Why the last push failed; empty if it did not.")


class PushOut(serializers.Serializer):
    public_key = serializers.CharField(
        allow_null=True,
        help_text="The site's VAPID key (base64url), the `applicationServerKey` to subscribe with; "
        "null: push is not set up on this site.",
    )
    events = _events_field(help_text=EVENTS_HELP)
    subscriptions = PushSubscriptionOut(many=True)


class PushIn(serializers.Serializer):
    events = _events_field(required=False, help_text=EVENTS_HELP + " Left out: unchanged.")


class PushKeysIn(serializers.Serializer):
    p256dh = serializers.CharField(max_length=200, help_text="The browser's public key, base64url.")
    auth = serializers.CharField(max_length=100, help_text="The browser's auth secret, base64url.")


class PushSubscriptionIn(serializers.Serializer):
    """PushSubscription.toJSON() as the browser gives it (expirationTime is ignored)."""

    endpoint = serializers.CharField(max_length=1000)
    keys = PushKeysIn()
    user_agent = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class WebhookOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    format = serializers.ChoiceField(
        choices=FORMAT_VALUES, help_text="generic (signed JSON), discord, slack, matrix (hookshot) or ntfy."
    )
    events = _events_field(help_text=EVENTS_HELP)
    secret = serializers.CharField(help_text="Keys the HMAC-SHA256 signature (X-Topos-Signature): docs/webhooks.md.")
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class WebhookIn(serializers.Serializer):
    url = serializers.CharField(
        max_length=1000,
        validators=[HTTP_ONLY],
        help_text="http(s) only, and never an address inside a private network.",
    )
    format = serializers.ChoiceField(choices=FORMAT_VALUES, required=False, default="generic")
    events = _events_field(required=False, help_text=EVENTS_HELP + " Left out: all but chat.")


class WebhookPatchIn(serializers.Serializer):
    url = serializers.CharField(max_length=1000, required=False, validators=[HTTP_ONLY])
    format = serializers.ChoiceField(choices=FORMAT_VALUES, required=False)
    events = _events_field(required=False, help_text=EVENTS_HELP)
    active = serializers.BooleanField(required=False)
    new_secret = serializers.BooleanField(required=False, help_text="true: a new secret replaces the old one.")


class DeliveryOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="Also its X-Topos-Delivery header, the same on every attempt.")
    event = serializers.CharField(help_text="The notification's kind, or test.")
    status = serializers.ChoiceField(choices=DELIVERY_STATUS_VALUES)
    attempts = serializers.IntegerField()
    last_status = serializers.IntegerField(allow_null=True, help_text="The last answer's HTTP status.")
    last_error = serializers.CharField(help_text="Why the last attempt failed; empty if it did not.")
    next_attempt_at = serializers.DateTimeField(allow_null=True, help_text="When it is tried again, if it is.")
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)


def subscription_data(s: PushSubscription) -> dict:
    return {
        "id": s.pk,
        "endpoint": s.endpoint,
        "user_agent": s.user_agent,
        "created_at": s.created_at,
        "last_success_at": s.last_success_at,
        "last_error": s.last_error,
    }


def push_data(user) -> dict:
    return {
        "public_key": vapid.public_key(),
        "events": services.push_events_of(user),
        "subscriptions": [subscription_data(s) for s in PushSubscription.objects.filter(user=user)],
    }


def webhook_data(e: WebhookEndpoint) -> dict:
    return {
        "id": e.pk,
        "url": e.url,
        "format": e.format,
        "events": e.events,
        "secret": e.secret,
        "active": e.active,
        "created_at": e.created_at,
    }


def delivery_data(d: WebhookDelivery) -> dict:
    return {
        "id": d.pk,
        "event": d.event,
        "status": d.status,
        "attempts": d.attempts,
        "last_status": d.last_status,
        "last_error": d.last_error,
        "next_attempt_at": d.next_attempt_at,
        "created_at": d.created_at,
        "delivered_at": d.delivered_at,
    }


def _answer(call, status: int = 200):
    try:
        data = call()
    except ServiceError as exc:
        return error_response(exc)
    return Response(data, status=status)


class PushView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="me_push",
        summary="Web Push: the site's key, my devices, the events pushed",
        responses={200: PushOut, **SIGNED_OUT},
    )
    def get(self, request):
        return Response(push_data(request.user))

    @extend_schema(
        operation_id="me_push_update",
        summary="Choose the events pushed to my devices",
        description="Pushes follow ruling S6 as emails do: a turn after the grace unless she looks at the table, "
        "nothing in her quiet hours (sent when they end unless seen by then).",
        request=PushIn,
        responses={200: PushOut, 400: error(400, "An unknown event."), **SIGNED_OUT_WRITE},
    )
    def patch(self, request):
        body = PushIn(data=request.data)
        body.is_valid(raise_exception=True)
        if "events" in body.validated_data:
            services.push_events_set(user=request.user, events=body.validated_data["events"])
        return Response(push_data(request.user))


class PushSubscriptionsView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="me_push_subscriptions",
        summary="My devices subscribed to push",
        responses={200: PushSubscriptionOut(many=True), **SIGNED_OUT},
    )
    def get(self, request):
        return Response([subscription_data(s) for s in PushSubscription.objects.filter(user=request.user)])

    @extend_schema(
        operation_id="me_push_subscription_register",
        summary="Register this browser's push subscription",
        description="The body is what `PushSubscription.toJSON()` gives. The same endpoint again updates it (200).",
        request=PushSubscriptionIn,
        responses={
            200: PushSubscriptionOut,
            201: PushSubscriptionOut,
            400: error(400, "Keys a browser does not make, or an endpoint the site may not post to."),
            409: error(409, "Push is not set up on this site (no VAPID key)."),
            **SIGNED_OUT_WRITE,
        },
    )
    def post(self, request):
        body = PushSubscriptionIn(data=request.data)
        body.is_valid(raise_exception=True)
        given = body.validated_data
        try:
            subscription, made = services.push_subscription_register(
                user=request.user,
                endpoint=given["endpoint"],
                p256dh=given["keys"]["p256dh"],
                auth=given["keys"]["auth"],
                user_agent=given.get("user_agent") or request.headers.get("User-Agent", ""),
            )
        except ServiceError as exc:
            return error_response(exc)
        return Response(subscription_data(subscription), status=201 if made else 200)


class PushSubscriptionView(APIView):
    @extend_schema(
        operation_id="me_push_subscription_delete",
        summary="Forget one of my push devices",
        request=None,
        responses={204: None, 404: error(404, "No such device of yours."), **SIGNED_OUT_WRITE},
    )
    def delete(self, request, pk: int):
        return _answer(lambda: services.push_subscription_delete(user=request.user, subscription_id=pk), 204)


class WebhooksView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="me_webhooks", summary="My webhooks", responses={200: WebhookOut(many=True), **SIGNED_OUT}
    )
    def get(self, request):
        return Response([webhook_data(e) for e in WebhookEndpoint.objects.filter(user=request.user)])

    @extend_schema(
        operation_id="me_webhook_create",
        summary="Add a webhook",
        description="Each event is posted as JSON in the format chosen, signed: X-Topos-Timestamp and "
        'X-Topos-Signature = "v1=" + hex HMAC-SHA256(secret, timestamp + "." + body) (docs/webhooks.md). Retried '
        "with exponential backoff; the log is GET /api/me/webhooks/{id}/deliveries/.",
        request=WebhookIn,
        responses={
            201: WebhookOut,
            400: error(400, "Not an http(s) address, or one inside a private network (after DNS)."),
            409: error(409, "She has as many webhooks as one person may."),
            **SIGNED_OUT_WRITE,
        },
    )
    def post(self, request):
        body = WebhookIn(data=request.data)
        body.is_valid(raise_exception=True)
        return _answer(lambda: webhook_data(services.webhook_create(user=request.user, **body.validated_data)), 201)


class WebhookView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="me_webhook",
        summary="One of my webhooks",
        responses={200: WebhookOut, 404: error(404, "No such webhook of yours."), **SIGNED_OUT},
    )
    def get(self, request, pk: int):
        return _answer(lambda: webhook_data(services.webhook_of(user=request.user, endpoint_id=pk)))

    @extend_schema(
        operation_id="me_webhook_update",
        summary="Change one of my webhooks",
        request=WebhookPatchIn,
        responses={
            200: WebhookOut,
            400: error(400, "Not an http(s) address, or one inside a private network."),
            404: error(404, "No such webhook of yours."),
            **SIGNED_OUT_WRITE,
        },
    )
    def patch(self, request, pk: int):
        body = WebhookPatchIn(data=request.data)
        body.is_valid(raise_exception=True)
        changes = dict(body.validated_data)
        return _answer(
            lambda: webhook_data(services.webhook_update(user=request.user, endpoint_id=pk, changes=changes))
        )

    @extend_schema(
        operation_id="me_webhook_delete",
        summary="Delete one of my webhooks (and its log)",
        request=None,
        responses={204: None, 404: error(404, "No such webhook of yours."), **SIGNED_OUT_WRITE},
    )
    def delete(self, request, pk: int):
        return _answer(lambda: services.webhook_delete(user=request.user, endpoint_id=pk), 204)


class WebhookTestView(APIView):
    @extend_schema(
        operation_id="me_webhook_test",
        summary="Send a test event to one of my webhooks",
        description="Logged and retried like any event; the answer is its log entry as queued.",
        request=None,
        responses={202: DeliveryOut, 404: error(404, "No such webhook of yours."), **SIGNED_OUT_WRITE},
    )
    def post(self, request, pk: int):
        return _answer(lambda: delivery_data(services.webhook_test(user=request.user, endpoint_id=pk)), 202)


class WebhookDeliveriesView(APIView):
    @extend_schema(
        operation_id="me_webhook_deliveries",
        summary="The delivery log of one of my webhooks, newest first",
        description=f"Its last {LOG_SIZE} deliveries (kept 30 days): status, attempts, the last answer and error.",
        responses={200: DeliveryOut(many=True), 404: error(404, "No such webhook of yours."), **SIGNED_OUT},
    )
    def get(self, request, pk: int):
        def log():
            endpoint = services.webhook_of(user=request.user, endpoint_id=pk)
            return [delivery_data(d) for d in endpoint.deliveries.all()[:LOG_SIZE]]

        return _answer(log)

"""Notifications through the API (decision 12, point 4): the list page, marking read, and the email settings page.

The same services as the pages (notifications.services), so the same rules: a "your turn" is rewritten,
not repeated, while unread (ruling S6), and once read the next turn at that table makes a new one; marking all
read marks every unread one of hers, whatever page she is on.  Each notification stores its event as data and
is worded when listed, in the reader's language (notifications.texts, as the page shows them; decision 13).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from games.api.errors import error_response
from games.api.own import BODY_PARSERS, SIGNED_OUT, SIGNED_OUT_WRITE
from games.api.pagination import _Pages, cursor_parameters, page_answer
from games.api.responses import error
from games.errors import ServiceError

from . import selectors, services
from .models import NotificationEvent, NotificationPreference
from .quiet import BAD_CLOCK, quiet_hours_of
from .texts import notification_words, table_path

EVENTS = dict(NotificationEvent.choices)
EMAIL = NotificationPreference.Email
# One enum each in the schema (config/settings.py, ENUM_NAME_OVERRIDES), however many fields use them.
EVENT_VALUES, EMAIL_VALUES = NotificationEvent.values, EMAIL.values


class NotificationPages(_Pages):
    # Newest first, as the page lists them.  A "your turn" rewritten by a later turn moves to the top
    # (ruling S6: it is that turn's notification now), so it can leave a page already read for the first.
    ordering = ("-created_at", "-id")
    page_size = 30
    max_page_size = 200


class NotificationOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(
        choices=NotificationEvent.values, help_text="What happened: " + ", ".join(NotificationEvent.values) + "."
    )
    label = serializers.CharField(help_text="That kind in the reader's language.")
    text = serializers.CharField(help_text="The notification, in the reader's language (worded when listed).")
    table = serializers.IntegerField(allow_null=True, help_text="The table it is about (GET /api/tables/{id}/).")
    url = serializers.CharField(allow_null=True, help_text="The table's page.")
    read = serializers.BooleanField()
    read_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField(help_text='When it happened (a rewritten "your turn": its latest turn).')


class NotificationPageOut(serializers.Serializer):
    next = serializers.URLField(allow_null=True, help_text="The next (older) page; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The page before (newer); null on the first.")
    unread = serializers.IntegerField(help_text="How many of hers are unread now (the badge of the pages).")
    results = NotificationOut(many=True)


class NotificationFilters(serializers.Serializer):
    # Not nullable: `?unread=` (empty) is no boolean and is refused, as the schema says.
    unread = serializers.BooleanField(
        required=False,
        help_text="true: only unread ones; false: only read ones; leave out: all.",
    )


class ReadAllOut(serializers.Serializer):
    marked = serializers.IntegerField(help_text="How many were unread and are read now.")
    unread = serializers.IntegerField(help_text="Unread ones left (0).")


def notification_data(n) -> dict:
    return {
        "id": n.pk,
        "kind": n.kind,
        "label": str(EVENTS.get(n.kind, n.kind)),
        "text": notification_words(n),
        "table": n.game_id,
        "url": table_path(n.game_id) if n.game_id else None,
        "read": n.read_at is not None,
        "read_at": n.read_at,
        "created_at": n.created_at,
    }


class NotificationListView(APIView):
    @extend_schema(
        operation_id="notifications_list",
        summary="My notifications, newest first, a page at a time",
        description="What the page /notifications/ lists: turns, invitations, starts, results, deadline "
        "warnings and the bot playing for you. `?unread=true` for the unread ones only.",
        parameters=[NotificationFilters, *cursor_parameters(NotificationPages)],
        responses={200: NotificationPageOut, 400: error(400, "A filter or cursor that is not valid."), **SIGNED_OUT},
    )
    def get(self, request):
        filters = NotificationFilters(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        rows = selectors.notifications_of_user(user=request.user)
        unread = filters.validated_data.get("unread")
        if unread is not None:
            rows = rows.filter(read_at__isnull=unread)
        answer = page_answer(
            NotificationPages,
            rows,
            request,
            self,
            lambda page: [notification_data(n) for n in page],
            unread=selectors.unread_count(user=request.user),
        )
        return Response(answer)


class NotificationReadView(APIView):
    @extend_schema(
        operation_id="notification_read",
        summary="Mark one notification of mine as read",
        description='Reading it again changes nothing. A read "your turn" is not rewritten any more: the '
        "next turn at that table makes a new one (ruling S6).",
        request=None,
        responses={200: NotificationOut, 404: error(404, "No such notification of yours."), **SIGNED_OUT_WRITE},
    )
    def post(self, request, pk: int):
        try:
            notification = services.notification_mark_read(user=request.user, notification_id=pk)
        except ServiceError as exc:
            return error_response(exc)
        return Response(notification_data(notification))


class NotificationReadAllView(APIView):
    @extend_schema(
        operation_id="notifications_read_all",
        summary="Mark all my notifications as read",
        request=None,
        responses={200: ReadAllOut, **SIGNED_OUT_WRITE},
    )
    def post(self, request):
        marked = services.notifications_mark_all_read(user=request.user)
        return Response({"marked": marked, "unread": selectors.unread_count(user=request.user)})


# --- preferences -----------------------------------------------------------------------------


class PreferenceOut(serializers.Serializer):
    event = serializers.ChoiceField(choices=NotificationEvent.values)
    label = serializers.CharField(help_text="The event in the reader's language.")
    email = serializers.ChoiceField(choices=EMAIL.values, help_text="immediate, digest (the daily digest) or none.")


class EmailChoiceOut(serializers.Serializer):
    value = serializers.ChoiceField(choices=EMAIL.values)
    label = serializers.CharField()


QUIET_HOURS_HELP = (
    "Ruling S6: a daily window in her time zone (her profile's) in which nothing is mailed, immediate emails and "
    "the daily digest alike; what falls inside is mailed when it ends, unless she has seen it by then (read it; "
    'for a turn, looked at the table or played). Times are "HH:MM", 24-hour; an end earlier than the start '
    'crosses midnight ("22:00" to "07:00"). null: no quiet hours.'
)


class QuietHoursOut(serializers.Serializer):
    start = serializers.CharField(help_text='From this local time, "HH:MM".')
    end = serializers.CharField(help_text='To this one, "HH:MM" (the next day if it is earlier than the start).')
    time_zone = serializers.CharField(help_text="Her time zone (set on her profile), in which both are read.")


CLOCK = r"^([01][0-9]|2[0-3]):[0-5][0-9]$"


def _clock_field(help_text: str) -> serializers.RegexField:
    return serializers.RegexField(
        CLOCK,
        help_text=help_text,
        error_messages={"invalid": gettext_lazy(BAD_CLOCK)},
    )


class QuietHoursIn(serializers.Serializer):
    """Both times, which must differ (the service says so: no schema can)."""

    def get_fields(self):
        return {
            "start": _clock_field('From this local time, "HH:MM" (24-hour).'),
            "end": _clock_field('To this one, "HH:MM"; earlier than the start: the next morning. Not the start.'),
        }


class PreferencesOut(serializers.Serializer):
    preferences = PreferenceOut(
        many=True, help_text="Per event, how she wants it by email. In the site every event is always shown."
    )
    choices = EmailChoiceOut(many=True)
    has_email = serializers.BooleanField(help_text="Without an address no email is sent, whatever is chosen.")
    quiet_hours = QuietHoursOut(allow_null=True, help_text=QUIET_HOURS_HELP)


class PreferencesIn(serializers.Serializer):
    """One optional field per event, and her quiet hours; what is left out keeps its value."""

    def get_fields(self):
        fields = {
            event: serializers.ChoiceField(choices=EMAIL.values, required=False, help_text=str(label))
            for event, label in NotificationEvent.choices
        }
        fields["quiet_hours"] = QuietHoursIn(required=False, allow_null=True, help_text=QUIET_HOURS_HELP)
        return fields

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(NotificationEvent.values) - {"quiet_hours"})
            if unknown:
                raise serializers.ValidationError({name: [_unknown_event()] for name in unknown})
        return super().to_internal_value(data)


class PreferencesInSchema(OpenApiSerializerExtension):
    """The schema says what the view does: a name that is not an event is refused (a typo must not pass)."""

    target_class = PreferencesIn

    def map_serializer(self, auto_schema, direction):
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": False}


def _unknown_event() -> str:
    return _("There is no such notification; the events are: %(events)s.") % {
        "events": ", ".join(NotificationEvent.values)
    }


def preferences_data(user) -> dict:
    current = selectors.email_choices_of_user(user=user)
    quiet = quiet_hours_of(user)
    return {
        "quiet_hours": None
        if quiet is None
        else {"start": f"{quiet.start:%H:%M}", "end": f"{quiet.end:%H:%M}", "time_zone": user.time_zone},
        "preferences": [
            {"event": event, "label": str(label), "email": current[event]} for event, label in NotificationEvent.choices
        ],
        "choices": [{"value": value, "label": str(label)} for value, label in EMAIL.choices],
        "has_email": bool(user.email),
    }


class NotificationPreferencesView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="me_notification_preferences",
        summary="How I want each event by email",
        description="The page /accounts/notifications/: per event, at once, in the daily digest or not at all; "
        "and her quiet hours, in which nothing is mailed (ruling S6).",
        responses={200: PreferencesOut, **SIGNED_OUT},
    )
    def get(self, request):
        return Response(preferences_data(request.user))

    @extend_schema(
        operation_id="me_notification_preferences_update",
        summary="Change how I want events by email",
        description='Name only the events to change, e.g. `{"your_turn": "digest", "finished": "none"}`, and '
        '`quiet_hours` to set them (`{"quiet_hours": {"start": "22:00", "end": "07:00"}}`) or `null` to have none. '
        "Everything in one body is changed together or, if any of it is refused, not at all.",
        request=PreferencesIn,
        responses={
            200: PreferencesOut,
            400: error(
                400,
                "An unknown event or choice, or quiet hours that are not two different HH:MM times; "
                "nothing is changed.",
            ),
            **SIGNED_OUT_WRITE,
        },
    )
    def patch(self, request):
        body = PreferencesIn(data=request.data)
        body.is_valid(raise_exception=True)
        choices = dict(body.validated_data)
        quiet = None
        if "quiet_hours" in choices:
            given = choices.pop("quiet_hours") or {}
            quiet = (given.get("start"), given.get("end"))
        try:
            services.notification_settings_set(user=request.user, choices=choices, quiet=quiet)
        except ServiceError as exc:
            return error_response(exc)
        return Response(preferences_data(request.user))

"""`GET/PATCH /api/me/`: my account as the profile page shows and edits it (decision 12, point 4).

Editable: the language and time zone (the profile's form, accounts.forms.LanguageTimeZoneForm, and its service
accounts.services.user_speech_set).  Read only: the username, the email (the site has no page to change it), the
bot-account flag (turned on once with POST /api/me/bot/), and the vacation summary (POST/DELETE /api/me/vacation/).
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import personal
from accounts import services as account_services
from accounts.forms import LanguageTimeZoneForm

from .. import hooks
from ..selectors import vacation
from .own import BODY_PARSERS, SIGNED_OUT, SIGNED_OUT_WRITE, form_refused
from .responses import error


class VacationSummaryOut(serializers.Serializer):
    on_vacation = serializers.BooleanField()
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When the vacation under way ends by itself.")
    left_seconds = serializers.IntegerField(help_text="Vacation time left this year (GET /api/me/vacation/ for more).")


class MeOut(serializers.Serializer):
    username = serializers.CharField()
    email = serializers.EmailField(help_text="Never shown to other players; not changed through the API.")
    language = serializers.ChoiceField(
        choices=[code for code, _name in settings.LANGUAGES],
        help_text="The language pages, notifications and emails speak to her in.",
    )
    time_zone = serializers.CharField(help_text="An IANA name, e.g. Europe/Madrid: times in pages and emails.")
    bot_account = serializers.BooleanField(help_text="Read only; POST /api/me/bot/ turns it on for good.")
    date_joined = serializers.DateTimeField()
    auto_play_forced = serializers.BooleanField(
        help_text="Decision 29: the site plays my forced decisions (one legal decision, nothing to take back) for me, "
        'logged as mine with source "auto"; never where I have a choice.'
    )
    unread_notifications = serializers.IntegerField(help_text="GET /api/notifications/?unread=true lists them.")
    vacation = VacationSummaryOut()


class StrictBooleanField(serializers.BooleanField):
    """true or false in JSON, nothing else (DRF's reads 0, 1, "yes"...: the schema promises a boolean)."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class MeIn(serializers.Serializer):
    language = serializers.ChoiceField(choices=[code for code, _name in settings.LANGUAGES], required=False)
    time_zone = serializers.ChoiceField(
        choices=personal.time_zone_names(),
        required=False,
        help_text="An IANA name, e.g. Europe/Madrid (the profile's list).",
    )
    auto_play_forced = StrictBooleanField(required=False, help_text="Play my forced decisions for me.")


def me_data(user) -> dict:
    standing = vacation.standing(user)
    return {
        "username": user.username,
        "email": user.email,
        "language": personal.language_of(user),
        "time_zone": user.time_zone,
        "bot_account": user.is_bot_account,
        "auto_play_forced": user.auto_play_forced,
        "date_joined": user.date_joined,
        "unread_notifications": sum(hooks.unread_count(user)),  # notifications
        "vacation": {
            "on_vacation": standing.current is not None,
            "ends_at": standing.current.ends_at if standing.current else None,
            "left_seconds": standing.left_seconds,
        },
    }


class MeView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="me",
        summary="My account: name, email, language, time zone, bot flag, vacation",
        responses={200: MeOut, **SIGNED_OUT},
    )
    def get(self, request):
        return Response(me_data(request.user))

    @extend_schema(
        operation_id="me_update",
        summary="Change my language, time zone and/or whether my forced decisions are played for me",
        description="As the profile's form: `language` one of the site's (en, es, zh-hant), `time_zone` an "
        "IANA name. Fields left out keep their value. The answer is already in the new language.",
        request=MeIn,
        responses={
            200: MeOut,
            400: error(400, "A language or time zone not offered; nothing is changed."),
            **SIGNED_OUT_WRITE,
        },
    )
    def patch(self, request):
        body = MeIn(data=request.data)
        body.is_valid(raise_exception=True)
        changes = dict(body.validated_data)
        user = request.user
        if "auto_play_forced" in changes:
            user = account_services.user_auto_play_set(user=user, on=changes.pop("auto_play_forced"))
            if not changes:
                return Response(me_data(user))
        # The profile's form wants both (its time zone list is the validation); what is left out keeps its value.
        form = LanguageTimeZoneForm(
            {
                "language": changes.get("language", personal.language_of(user)),
                "time_zone": changes.get("time_zone", user.time_zone),
            }
        )
        if not form.is_valid():
            return form_refused(form)
        # Only what was sent changes: an account that follows her browser's language keeps doing so.
        user = account_services.user_speech_set(user=user, **{name: form.cleaned_data[name] for name in changes})
        if user.language:
            translation.activate(user.language)  # as the page: the confirmation already in her new language
        return Response(me_data(user))

"""/api/me/vacation/: her vacation (ruling S4), read, started and ended."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from ..selectors import vacation
from ..services.vacation import vacation_end, vacation_start
from .idempotency import idempotent
from .responses import VacationStandingOut, errors
from .serializers import BoundedInteger
from .views import IDEMPOTENCY

STANDING = (
    "`on_vacation`, `started_at`, `ends_at` (planned; it ends by itself then), this calendar `year`'s "
    "`allowance_days`, `used_seconds` and `left_seconds` (time is counted to the second), and "
    "`latest_end_if_started_now`."
)


class VacationStartIn(serializers.Serializer):
    days = BoundedInteger(
        1,
        366,  # no year has more days; the service compares with what is left before any date arithmetic
        required=False,
        allow_null=True,
        default=None,
        help_text="Whole days (at least 1); leave out to stay away until your vacation days run out.",
    )


def _standing(request, status: int = 200) -> Response:
    return Response(vacation.standing_data(vacation.standing(request.user)), status=status)


def _lock_user(request):
    def lock():
        type(request.user).objects.select_for_update(no_key=True).filter(pk=request.user.pk).exists()

    return lock


class VacationView(APIView):
    @extend_schema(
        operation_id="me_vacation",
        summary="My vacation days this year and my vacation under way",
        description="Ruling S4: while on vacation the clocks of your correspondence tables stop (not at "
        "live tables, nor at tables with a time bank, which have it instead); your opponents "
        "see until when. " + STANDING,
        responses={200: VacationStandingOut},
    )
    def get(self, request):
        return _standing(request)

    @extend_schema(
        operation_id="me_vacation_start",
        summary="Start a vacation now",
        request=VacationStartIn,
        parameters=[IDEMPOTENCY],
        description="Starts now and lasts `days` days, or until your vacation days run out. " + STANDING,
        responses={
            201: VacationStandingOut,
            **errors(
                400,
                409,
                s400="`days` is not a whole number of days you have left.",
                s409="Already on vacation, or no vacation days left.",
            ),
        },
    )
    def post(self, request):
        body = VacationStartIn(data=request.data)
        body.is_valid(raise_exception=True)

        def handler():
            vacation_start(user=request.user, days=body.validated_data.get("days"))
            return _standing(request, status=201)

        return idempotent(request, _lock_user(request), handler)

    @extend_schema(
        operation_id="me_vacation_end",
        summary="End my vacation now",
        parameters=[IDEMPOTENCY],
        description="Your stopped clocks run again, each with the time it had left. " + STANDING,
        responses={200: VacationStandingOut, **errors(409, s409="Not on vacation.")},
    )
    def delete(self, request):
        def handler():
            vacation_end(user=request.user)
            return _standing(request)

        return idempotent(request, _lock_user(request), handler)

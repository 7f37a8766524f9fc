"""/healthz for load balancers and monitors: 200 when all is well, 503 naming what is wrong; no login."""

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from .health import OK, health_report


def _answer(checks: dict[str, str]) -> JsonResponse:
    failing = [name for name, answer in checks.items() if answer != OK]
    body = {"status": "unhealthy" if failing else "ok", "checks": checks}
    if failing:
        body["failing"] = failing
    return JsonResponse(body, status=503 if failing else 200)


@never_cache
@require_safe
def healthz(request):
    """Everything the site needs: database, broker, a worker serving the queue, beat sending the periodic work."""
    return _answer(health_report())


@never_cache
@require_safe
def healthz_web(request):
    """What this web process needs to take a move (database, broker): for a load balancer's rotation.

    A worker or beat that is down is the same for every web process, so it must not take them all out of
    rotation; /healthz reports it to monitors instead.
    """
    return _answer(health_report(background=False))

"""The pages of push and webhooks (decision 29): the push panel of the notification settings page, its form, the
webhooks page, and the service worker at the site's root.  The same services as the API (outbound/api.py)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.errors import ServiceError
from notifications.models import NotificationEvent

from . import services
from .models import WebhookEndpoint

LOG_ON_PAGE = 10


@require_GET
def service_worker(request):
    """/sw.js: at the root so that its scope is the whole site (a worker's scope is at most its own folder)."""
    with open(finders.find("outbound/sw.js"), encoding="utf-8") as source:
        response = HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


def _checked_events(request) -> list[str]:
    return [e for e in request.POST.getlist("events") if e]


def _done(request, call, said: str, target: str):
    try:
        call()
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, said)
    return redirect(target)


@login_required
@require_POST
def push_events(request):
    return _done(
        request,
        lambda: services.push_events_set(user=request.user, events=_checked_events(request)),
        _("The events pushed to your devices are saved."),
        "notification_settings",
    )


@login_required
@require_POST
def push_device_delete(request, pk: int):
    return _done(
        request,
        lambda: services.push_subscription_delete(user=request.user, subscription_id=pk),
        _("That device will get no more pushes."),
        "notification_settings",
    )


@login_required
def webhooks(request):
    """Her webhooks, each with its secret, its events and its recent deliveries; a form to add one."""
    if request.method == "POST":
        return _done(
            request,
            lambda: services.webhook_create(
                user=request.user,
                url=request.POST.get("url", "").strip(),
                format=request.POST.get("format", "generic"),
                events=_checked_events(request),
            ),
            _("The webhook is added. Send it a test event to check it."),
            "webhooks",
        )
    endpoints = [
        {"endpoint": e, "log": list(e.deliveries.all()[:LOG_ON_PAGE])}
        for e in WebhookEndpoint.objects.filter(user=request.user)
    ]
    return render(
        request,
        "outbound/webhooks.html",
        {
            "endpoints": endpoints,
            "formats": WebhookEndpoint.Format.choices,
            "events": NotificationEvent.choices,
            "default_events": services.DEFAULT_EVENTS,
        },
    )


@login_required
@require_POST
def webhook_update(request, pk: int):
    changes = {
        "url": request.POST.get("url", "").strip(),
        "format": request.POST.get("format", ""),
        "events": _checked_events(request),
        "active": request.POST.get("active") == "on",
    }
    return _done(
        request,
        lambda: services.webhook_update(user=request.user, endpoint_id=pk, changes=changes),
        _("The webhook is saved."),
        "webhooks",
    )


@login_required
@require_POST
def webhook_new_secret(request, pk: int):
    return _done(
        request,
        lambda: services.webhook_update(user=request.user, endpoint_id=pk, changes={"new_secret": True}),
        _("The webhook has a new secret: give it to the receiver."),
        "webhooks",
    )


@login_required
@require_POST
def webhook_delete(request, pk: int):
    return _done(
        request,
        lambda: services.webhook_delete(user=request.user, endpoint_id=pk),
        _("The webhook is deleted."),
        "webhooks",
    )


@login_required
@require_POST
def webhook_test(request, pk: int):
    return _done(
        request,
        lambda: services.webhook_test(user=request.user, endpoint_id=pk),
        _("A test event is on its way; its delivery is in the log below."),
        "webhooks",
    )

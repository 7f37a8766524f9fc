"""The notification list (mark one or all as read) and the email settings page."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import NotificationEvent, NotificationPreference

from ..errors import ServiceError
from . import selectors, services
from .texts import table_path


def _list_context(user) -> dict:
    items = selectors.notifications_of_user(user=user)
    return {"items": [{"n": n, "url": table_path(n.game_id) if n.game_id else ""} for n in items],
            "unread_count": sum(1 for n in items if n.read_at is None)}


@login_required
def notification_list(request):
    return render(request, "notifications/list.html", _list_context(request.user))


def _back_to_list(request):
    if request.htmx:
        response = render(request, "notifications/_list.html", _list_context(request.user))
        # The badge lives in the page header, outside the swapped list: ask htmx to refresh it.
        response["HX-Trigger"] = "notifications-changed"
        return response
    return redirect("notifications")


@login_required
@require_POST
def notification_read(request, pk: int):
    try:
        services.notification_mark_read(user=request.user, notification_id=pk)
    except ServiceError as exc:
        raise Http404(exc.message) from None
    return _back_to_list(request)


@login_required
@require_POST
def notification_open(request, pk: int):
    """Follow a notification: mark it read and go to its table."""
    try:
        notification = services.notification_mark_read(user=request.user, notification_id=pk)
    except ServiceError as exc:
        raise Http404(exc.message) from None
    if notification.game_id:
        return redirect(table_path(notification.game_id))
    return redirect("notifications")


@login_required
@require_POST
def notifications_read_all(request):
    services.notifications_mark_all_read(user=request.user)
    return _back_to_list(request)


@login_required
def notification_settings(request):
    """Per event: email at once, in the daily digest, or not at all (the site always shows it)."""
    if request.method == "POST":
        choices = {event: request.POST.get(event, "") for event in NotificationEvent.values}
        try:
            services.notification_preferences_set(user=request.user, choices=choices)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Your notification settings are saved."))
            target = request.POST.get("next", "")
            if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
                return redirect(target)
            return redirect("notification_settings")
    current = selectors.email_choices_of_user(user=request.user)
    rows = [{"event": value, "label": label, "choice": current[value]} for value, label in NotificationEvent.choices]
    return render(request, "notifications/settings.html", {
        "rows": rows, "email_choices": NotificationPreference.Email.choices, "has_email": bool(request.user.email),
    })

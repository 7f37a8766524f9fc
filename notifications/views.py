"""The notification list (mark one or all as read) and the email settings page (with quiet hours)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import ServiceError

from . import selectors, services
from .models import NotificationEvent, NotificationPreference
from .quiet import quiet_hours_of
from .texts import notification_words, table_path

PER_PAGE = 30


def _list_context(request) -> dict:
    """One page of her notifications, newest first (PER_PAGE a page; every one is reachable)."""
    number = request.POST.get("page") or request.GET.get("page") or 1
    page = Paginator(selectors.notifications_of_user(user=request.user), PER_PAGE).get_page(number)
    # Worded now, in the page's language (decision 13: the notification stores data, not words).
    return {
        "items": [
            {"n": n, "text": notification_words(n), "url": table_path(n.game_id) if n.game_id else ""} for n in page
        ],
        "page_obj": page,
        "page_numbers": page.paginator.get_elided_page_range(page.number),
        "unread_count": selectors.unread_count(user=request.user),
    }


@login_required
def notification_list(request):
    return render(request, "notifications/list.html", _list_context(request))


def _back_to_list(request):
    """After marking read: the same page of the list again (htmx) or a redirect to it."""
    if request.htmx:
        # The badge lives in the page header, outside the swapped list: the answer carries it out of band
        # (templates/notifications/_badge.html), counted after the change by the context processor.
        return render(request, "notifications/_list.html", {**_list_context(request), "badge_oob": True})
    page = request.POST.get("page", "")
    return redirect(f"{reverse('notifications')}?page={page}" if page.isdigit() else reverse("notifications"))


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
    """Per event: email at once, in the daily digest, or not at all (the site always shows it); and her quiet
    hours (ruling S6), in her time zone, in which nothing is mailed."""
    if request.method == "POST":
        # An event the form did not send keeps its choice (a page opened before that event existed).
        choices = {event: request.POST[event] for event in NotificationEvent.values if event in request.POST}
        quiet = None
        if "quiet_start" in request.POST or "quiet_end" in request.POST:
            quiet = (request.POST.get("quiet_start", "").strip(), request.POST.get("quiet_end", "").strip())
        try:
            services.notification_settings_set(user=request.user, choices=choices, quiet=quiet)
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
    quiet = quiet_hours_of(request.user)
    return render(
        request,
        "notifications/settings.html",
        {
            "rows": rows,
            "email_choices": NotificationPreference.Email.choices,
            "has_email": bool(request.user.email),
            "quiet": quiet,
            "time_zone": request.user.time_zone,
        },
    )

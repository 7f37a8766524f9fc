"""{% push_panel %}: the push block of the notification settings page (decision 29)."""

from django import template
from django.middleware.csrf import get_token

from notifications.models import NotificationEvent
from outbound import services, vapid
from outbound.models import PushSubscription

register = template.Library()


@register.inclusion_tag("outbound/_push.html", takes_context=True)
def push_panel(context):
    request = context["request"]
    chosen = set(services.push_events_of(request.user))
    return {
        "public_key": vapid.public_key() or "",
        "devices": list(PushSubscription.objects.filter(user=request.user)),
        "events": [{"value": v, "label": label, "on": v in chosen} for v, label in NotificationEvent.choices],
        "csrf": get_token(request),
    }

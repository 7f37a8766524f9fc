"""`unread_notifications` on every page: the badge count, counted only if a template uses it."""
from django.utils.functional import SimpleLazyObject

from .selectors import unread_count


def unread(request):
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"unread_notifications": 0}
    return {"unread_notifications": SimpleLazyObject(lambda: unread_count(user=user))}

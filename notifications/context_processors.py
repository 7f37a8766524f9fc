"""`unread_notifications` on every page: the count behind the badge in base.html (one indexed COUNT).

Lazy: counted only when a template shows it, so a fragment without the badge (a move's answer, decision 16) does
not count.
"""

from django.utils.functional import SimpleLazyObject

from .selectors import unread_count


def unread(request):
    user = getattr(request, "user", None)
    return {"unread_notifications": SimpleLazyObject(lambda: unread_count(user=user))}

"""`unread_notifications` on every page: the count behind the badge in base.html (one indexed COUNT)."""
from .selectors import unread_count


def unread(request):
    return {"unread_notifications": unread_count(user=getattr(request, "user", None))}

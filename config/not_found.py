"""The site's own 404 page, even with DEBUG on, and the favicon browsers ask for at /favicon.ico.

With DEBUG on (`run.sh --dev`), Django answers an unknown address with a page listing every URL
pattern of the site, to anyone who asks.  Here everyone but staff gets the 404 page the site
serves in production (templates/404.html); staff keep Django's page for debugging.
"""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.defaults import page_not_found


def not_found(request, exception=None):
    """handler404: the API answers an address it does not know in its one error shape (JSON, decision 12), the
    site with its 404 page."""
    if request.path_info.startswith("/api/"):
        return JsonResponse(
            {
                "error": "not_found",
                "detail": _("There is nothing at this address of the API; the list of its addresses is at /api/docs/."),
            },
            status=404,
        )
    return page_not_found(request, exception)


def _debug_page_forbidden(request) -> bool:
    user = getattr(request, "user", None)
    return settings.DEBUG and not (user is not None and user.is_staff)


class NotFoundPageMiddleware:
    """Below CommonMiddleware (so APPEND_SLASH still redirects) and AuthenticationMiddleware (staff)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _debug_page_forbidden(request):
            # An unknown address is refused by the URL resolver before any view (and process_exception) runs.
            try:
                resolve(request.path_info, getattr(request, "urlconf", None))
            except Resolver404 as exc:
                return not_found(request, exc)
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, Http404) and _debug_page_forbidden(request):
            return not_found(request, exception)
        return None


@cache_control(public=True, max_age=86400)
def favicon(request):
    """/favicon.ico, which browsers ask for on every site whatever the page links: the SVG icon."""
    return redirect(static("img/favicon.svg"), permanent=False)

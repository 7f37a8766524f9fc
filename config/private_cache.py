"""`Cache-Control: private, no-store` on every page and API answer the site builds.

Nearly everything is built for one viewer (her seat's view of a game, her notifications, her
profile, her API tokens) or carries her CSRF token; a shared cache (a proxy, a CDN) must never
keep it for the next person, and a browser should not keep a table's hidden cards on disk.
Static files never reach this middleware (WhiteNoise, above it, answers them with their own long
cache).  A view that sets Cache-Control itself (a redirect to the favicon, a health check) keeps it.
"""

from __future__ import annotations

from django.utils.cache import patch_cache_control


class PrivateCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response

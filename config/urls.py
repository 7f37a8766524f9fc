from django.contrib import admin
from django.urls import include, path

from accounts.views import language_set
from outbound.views import service_worker

from .monitoring.views import healthz, healthz_web
from .not_found import favicon

handler404 = "config.not_found.not_found"  # JSON under /api/ (decision 12), the site's page elsewhere

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),  # decision 14 (safety)
    path("healthz", healthz, name="healthz"),  # load balancers and monitors (config.monitoring.views)
    path("healthz/web", healthz_web, name="healthz-web"),
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("api/", include("feed.api_urls")),  # decision 12, point 2: the event feed and its streams
    path("api/", include("notifications.api_urls")),  # decision 12, point 4
    # The language menu: Django's set_language, and kept on her account when she is logged in.
    path("i18n/setlang/", language_set, name="set_language"),
    path("api/", include("ratings.api_urls")),  # ruling S5: leaderboards and players' ratings
    path("api/tournaments/", include("tournaments.api_urls")),  # decision 17
    path("api/", include("outbound.api_urls")),  # decision 29: push and webhooks
    path("sw.js", service_worker, name="service_worker"),  # decision 29: Web Push's worker, at the site's root scope
    path("tournaments/", include("tournaments.urls")),
    path("leaderboards/", include("ratings.urls")),
    path("accounts/notifications/", include("notifications.settings_urls")),
    path("accounts/notifications/", include("outbound.urls")),  # decision 29: push and webhooks
    path("accounts/", include("games.account_urls")),  # a player's page, vacation: games' data (decision 25)
    path("accounts/", include("accounts.urls")),
    path("notifications/", include("notifications.urls")),
    path("api/", include("sandbox.api_urls")),  # decision 29, point 1: sandboxes
    path("api/", include("notes.api_urls")),  # decision 29, point 4: private notes
    path("api/", include("chat.api_urls")),  # decision 17, point 1: the table chat
    path("", include("sandbox.urls")),
    path("", include("notes.urls")),
    path("", include("chat.urls")),  # decision 17, point 1: the table page's chat panel
    path("", include("games.urls")),
]

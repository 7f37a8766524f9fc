from django.contrib import admin
from django.urls import include, path

from accounts.views import language_set

from .monitoring.views import healthz, healthz_web
from .not_found import favicon

handler404 = "config.not_found.not_found"  # JSON under /api/ (issue 12), the site's page elsewhere

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),  # issue 14 (safety)
    path("healthz", healthz, name="healthz"),  # load balancers and monitors (config.monitoring.views)
    path("healthz/web", healthz_web, name="healthz-web"),
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    # The language menu: Django's set_language, and kept on her account when she is logged in.
    path("i18n/setlang/", language_set, name="set_language"),
    path("api/", include("ratings.api_urls")),  # ruling S5: leaderboards and players' ratings
    path("api/tournaments/", include("games.tournaments.api_urls")),  # issue 17
    path("tournaments/", include("games.tournaments.urls")),
    path("leaderboards/", include("ratings.urls")),
    path("accounts/notifications/", include("games.notifications.settings_urls")),
    path("accounts/", include("accounts.urls")),
    path("notifications/", include("games.notifications.urls")),
    path("", include("games.urls")),
]

from django.contrib import admin
from django.urls import include, path

from .monitoring.views import healthz, healthz_web
from .not_found import favicon

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),  # issue 14 (safety)
    path("healthz", healthz, name="healthz"),  # load balancers and monitors (config.monitoring.views)
    path("healthz/web", healthz_web, name="healthz-web"),
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("api/", include("ratings.api_urls")),  # ruling S5: leaderboards and players' ratings
    path("leaderboards/", include("ratings.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/notifications/", include("games.notifications.settings_urls")),
    path("accounts/", include("accounts.urls")),
    path("notifications/", include("games.notifications.urls")),
    path("", include("games.urls")),
]

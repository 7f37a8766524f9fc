from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("games.api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/notifications/", include("games.notifications.settings_urls")),
    path("accounts/", include("accounts.urls")),
    path("notifications/", include("games.notifications.urls")),
    path("", include("games.urls")),
]

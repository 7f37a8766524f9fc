"""Values every page needs."""

from django.conf import settings


def site(request):
    return {"SITE_NAME": "Topos", "SITE_URL": settings.SITE_URL}

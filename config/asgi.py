"""ASGI entry point: `uvicorn config.asgi:application` (README "Running under uvicorn").

The event streams (games.feed.asgi) are answered before Django, so an open stream holds no thread;
every other request goes to Django as under WSGI.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()  # sets Django up: the import below needs the apps loaded

from games.feed.asgi import streams_in_front_of  # noqa: E402

application = streams_in_front_of(django_application)

"""Static files without collectstatic: the PostgreSQL commands of docs/operations.md (runserver, DEBUG false) get
CSS and JavaScript."""

from django.test import Client


def test_the_apps_static_files_are_served_without_collectstatic(settings):
    assert settings.DEBUG is False
    client = Client()
    css = client.get("/static/css/site.css")
    assert css.status_code == 200 and css["Content-Type"].startswith("text/css")
    swagger = client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
    assert swagger.status_code == 200 and "javascript" in swagger["Content-Type"]
    assert client.get("/static/css/no-such-file.css").status_code == 404

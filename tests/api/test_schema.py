"""The API documents itself: an OpenAPI schema and a browsable page, served without a CDN."""
import pytest

pytestmark = pytest.mark.django_db


def test_the_schema_lists_every_endpoint(client):
    reply = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert reply.status_code == 200
    schema = reply.json()
    for path in ("/api/tables/", "/api/tables/{id}/", "/api/tables/{id}/actions/", "/api/tables/{id}/legal-actions/",
                 "/api/tables/{id}/join/", "/api/tables/{id}/start/", "/api/catalogue/"):
        assert path in schema["paths"], path
    assert "tokenAuth" in schema["components"]["securitySchemes"]
    post = schema["paths"]["/api/tables/{id}/actions/"]["post"]
    assert any(p["name"] == "Idempotency-Key" for p in post["parameters"])
    assert {"400", "403", "404", "409", "422"} <= set(post["responses"])


def test_the_documentation_page_uses_local_assets(client):
    reply = client.get("/api/docs/")
    assert reply.status_code == 200
    html = reply.content.decode()
    assert "swagger-ui" in html
    assert "cdn.jsdelivr" not in html and "unpkg.com" not in html


def test_the_catalogue_describes_the_games(client):
    games = {g["name"]: g for g in client.get("/api/catalogue/").json()["games"]}
    assert games["topology"]["min_players"] == 2 and games["topology"]["max_players"] == 4
    assert "advanced" in [o["name"] for o in games["topology"]["options"]]

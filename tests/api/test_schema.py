"""The API documents itself: an OpenAPI schema and a browsable page, served without a CDN."""

import pytest

pytestmark = pytest.mark.django_db


def test_the_schema_lists_every_endpoint(client):
    reply = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert reply.status_code == 200
    schema = reply.json()
    for path in (
        "/api/tables/",
        "/api/tables/{id}/",
        "/api/tables/{id}/actions/",
        "/api/tables/{id}/legal-actions/",
        "/api/tables/{id}/join/",
        "/api/tables/{id}/start/",
        "/api/catalogue/",
    ):
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


def _resolve(schema: dict, components: dict) -> dict:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _operations(schema: dict):
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield f"{method.upper()} {path}", method, operation


def test_every_answer_is_a_named_shape_and_every_error_the_one_error_shape(client):
    """Decision 12: no free-form object answers; the errors of every operation are documented, all as `Error`."""
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    error = components["Error"]
    assert {"error", "detail"} <= set(error["required"]) and {"fields", "retry_after"} <= set(error["properties"])
    free_form, unnamed, undocumented = [], [], []
    for name, method, operation in _operations(schema):
        assert operation.get("operationId") and operation.get("summary"), name
        statuses = set(operation["responses"])
        errors = {"401", "429"} | ({"400", "403"} if method in ("post", "put", "patch", "delete") else set())
        if "{" in name:
            errors.add("404")
        undocumented += [f"{name} {status}" for status in sorted(errors - statuses)]
        for status, answer in operation["responses"].items():
            for media, content in answer.get("content", {}).items():
                body = content["schema"]
                if status.startswith(("4", "5")):
                    if body != {"$ref": "#/components/schemas/Error"}:
                        unnamed.append(f"{name} {status}")
                    continue
                if media != "application/json":
                    continue
                if "$ref" not in body and body.get("type") != "array":
                    unnamed.append(f"{name} {status}")
                resolved = _resolve(body, components)
                if resolved.get("type") == "object" and not resolved.get("properties"):
                    free_form.append(f"{name} {status}")
    assert free_form == [] and unnamed == [] and undocumented == []


def test_the_view_of_each_game_is_documented_in_the_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    components = schema["components"]["schemas"]
    view = components["TableDetailOut"]["properties"]["view"]
    assert {ref["$ref"] for ref in view["oneOf"]} == {
        "#/components/schemas/TopologyView",
        "#/components/schemas/TopoumView",
        "#/components/schemas/ToppoView",
    }
    for name in ("TopologyView", "TopoumView", "ToppoView"):
        assert components[name]["additionalProperties"] is False
        assert all(field.get("description") for field in components[name]["properties"].values()), name

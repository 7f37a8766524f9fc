"""Describes the API token header in the OpenAPI schema (drf-spectacular extension)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": (
                "`Token <key>`; create keys on your profile page. The key is shown once. It works until "
                "the expiry chosen then (30, 90 or 365 days, or never), until revoked, or until the "
                "owner's password is changed or reset; after that the answer is 401 saying which."
            ),
        }

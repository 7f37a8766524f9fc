"""API tokens through the API (decision 12, point 4): list, create, rename and revoke, as on the profile page.

The same form validation (accounts.forms) and the same services (accounts.services) as the page.  A key is
never given again after its creation: only a fingerprint is stored, the list shows its first characters.

Who may do what.  A token may list, rename and revoke its account's tokens (itself too): that only ever takes
power away, and a program that finds its key leaked should be able to kill it at once.  Creating a token needs
the browser's session (a person who logged in with her password), not a token: a stolen key that could mint
keys would outlive its own revocation, and one expiring in 30 days could make one that never expires.
Creating is also not idempotent (no `Idempotency-Key`): the answer holds the new key, which is never stored,
not even to replay an answer.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import selectors as account_selectors
from accounts import services as account_services
from accounts.forms import TokenCreateForm, TokenRenameForm
from accounts.models import ApiToken
from accounts.token_uses import with_noted_uses

from ..errors import Forbidden, NotFound
from .errors import error_response
from .own import (
    BODY_PARSERS,
    SIGNED_OUT,
    SIGNED_OUT_WRITE,
    bad_body,
    form_refused,
)
from .pagination import _Pages, cursor_parameters, page_answer
from .responses import error

EXPIRY_VALUES = [value for value, _label in TokenCreateForm.EXPIRY_CHOICES]


class TokenOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The key's first characters after `tps_`, to recognise it.")
    created_at = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="To within five minutes; null: never.")
    expires_at = serializers.DateTimeField(allow_null=True, help_text="null: until revoked.")
    expired = serializers.BooleanField(help_text="It no longer signs in (listed until revoked, as on the page).")
    current = serializers.BooleanField(help_text="The token this request was signed with.")


class TokenPages(_Pages):
    ordering = ("-created_at", "-id")
    page_size = 50
    max_page_size = 200


class TokenListOut(serializers.Serializer):
    next = serializers.URLField(allow_null=True, help_text="The next (older) page; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The page before; null on the first.")
    results = TokenOut(many=True, help_text="Newest first; revoked ones are gone, expired ones stay until revoked.")


class NewTokenOut(TokenOut):
    key = serializers.CharField(help_text="The key itself, shown this once: send it as `Authorization: Token <key>`.")


class TokenCreateIn(serializers.Serializer):
    name = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=60,
        help_text="What it is for, e.g. “my bot” (1-60 characters; blank: “API token”).",
    )
    expires = serializers.ChoiceField(
        choices=EXPIRY_VALUES,
        required=False,
        help_text="In 30, 90 (the default) or 365 days, or never (until revoked).",
    )


class TokenRenameIn(serializers.Serializer):
    name = serializers.CharField(max_length=60, help_text="1 to 60 characters (left out: the name stays).")


def token_data(token: ApiToken, request) -> dict:
    """One token as the API shows it: pass it through accounts.token_uses.with_noted_uses first (once for a whole
    list), so `last_used_at` is the later of its row's and the use requests noted."""
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created_at": token.created_at,
        "last_used_at": token.last_used_at,
        "expires_at": token.expires_at,
        "expired": token.is_expired,
        "current": isinstance(request.auth, ApiToken) and request.auth.pk == token.pk,
    }


def _mine(request, pk: int) -> ApiToken:
    token = account_selectors.token_of_user(user=request.user, token_id=pk)
    if token is None:
        raise NotFound(_("There is no such API token of yours: it was revoked, or it is not yours."))
    return token


def _form_data(request, fields: tuple[str, ...]) -> dict | None:
    """The body's `fields` as a form's data, or None if the body is not an object (JSON or a form) or one of those
    fields is not a string.  Other fields are ignored, as everywhere in the API (a later client may send more)."""
    if not hasattr(request.data, "items"):
        return None
    data = {name: value for name, value in request.data.items() if name in fields}
    return data if all(isinstance(value, str) for value in data.values()) else None


NO_TOKEN = {404: error(404, "No such token of yours (another's, or revoked).")}


class TokenListView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="me_tokens",
        summary="My API tokens (never their keys), a page at a time",
        parameters=cursor_parameters(TokenPages),
        responses={200: TokenListOut, 400: error(400, "A cursor or page size that is not valid."), **SIGNED_OUT},
    )
    def get(self, request):
        rows = account_selectors.tokens_of_user(user=request.user)

        def shown(page):  # the uses requests noted, read once for the whole page
            return [token_data(t, request) for t in with_noted_uses(page)]

        return Response(page_answer(TokenPages, rows, request, self, shown))

    @extend_schema(
        operation_id="me_token_create",
        summary="Create an API token: the answer holds its key, once",
        description="Only with a browser session (a person signed in with her password), not with a token: "
        "a stolen key must not be able to make itself new ones. Not idempotent: the key is "
        "never stored, so an answer cannot be replayed.",
        request=TokenCreateIn,
        responses={
            201: NewTokenOut,
            400: error(400, "A name over 60 characters or an expiry not offered."),
            401: SIGNED_OUT[401],
            403: error(403, "Signed in with a token, or a session without its CSRF token."),
        },
    )
    def post(self, request):
        if isinstance(request.auth, ApiToken):
            return error_response(
                Forbidden(
                    _("A token cannot create tokens: create one on your profile page, or with your browser session.")
                )
            )
        data = _form_data(request, tuple(TokenCreateIn().fields))
        if data is None:
            return bad_body()
        form = TokenCreateForm(data)
        if not form.is_valid():
            return form_refused(form)
        token, key = account_services.api_token_create(
            user=request.user, name=form.cleaned_data["name"], expires_in_days=form.expires_in_days()
        )
        return Response({**token_data(token, request), "key": key}, status=201)


class TokenView(APIView):
    parser_classes = BODY_PARSERS

    @extend_schema(
        operation_id="me_token_rename",
        summary="Rename one of my API tokens",
        request=TokenRenameIn,
        responses={
            200: TokenOut,
            400: error(400, "A name empty or over 60 characters."),
            **NO_TOKEN,
            **SIGNED_OUT_WRITE,
        },
    )
    def patch(self, request, pk: int):
        token = with_noted_uses([_mine(request, pk)])[0]
        data = _form_data(request, tuple(TokenRenameIn().fields))
        if data is None:
            return bad_body()
        if "name" not in data:  # a PATCH changes what it names; nothing named, nothing changed
            return Response(token_data(token, request))
        form = TokenRenameForm(data)
        if not form.is_valid():
            return form_refused(form, _("A key's name must be 1 to 60 characters long."))
        account_services.api_token_rename(token=token, name=form.cleaned_data["name"])
        return Response(token_data(token, request))

    @extend_schema(
        operation_id="me_token_revoke",
        summary="Revoke one of my API tokens (it signs in no more)",
        description="The token this request is signed with may revoke itself.",
        request=None,
        responses={204: None, **NO_TOKEN, **SIGNED_OUT_WRITE},
    )
    def delete(self, request, pk: int):
        account_services.api_token_revoke(token=_mine(request, pk))
        return Response(status=204)


class TokenRevokeView(APIView):
    @extend_schema(
        operation_id="me_token_revoke_post",
        summary="Revoke one of my API tokens (as DELETE, for clients that only POST)",
        request=None,
        responses={204: None, **NO_TOKEN, **SIGNED_OUT_WRITE},
    )
    def post(self, request, pk: int):
        account_services.api_token_revoke(token=_mine(request, pk))
        return Response(status=204)

"""`Authorization: Token <key>` for the REST API, checked against the stored hash."""

import datetime as dt

from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions
from rest_framework.permissions import SAFE_METHODS

from .models import ApiToken, hash_token
from .token_uses import LAST_USED_PRECISION, token_use_note


class ApiTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Send the header as 'Authorization: Token <key>'."))
        key = header[1].decode(errors="replace")
        token = ApiToken.objects.select_related("user").filter(digest=hash_token(key), revoked_at__isnull=True).first()
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(
                _(
                    "This API token is unknown or has been revoked (changing or resetting the password revokes "
                    "every token). Create a new one on your profile page."
                )
            )
        if token.is_expired:
            raise exceptions.AuthenticationFailed(
                _("This API token expired on %(date)s. Create a new one on your profile page.")
                % {"date": f"{token.expires_at.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC"}
            )
        now = timezone.now()
        if request.method in SAFE_METHODS:
            # No write on a read request (issue 16): the use is noted in the cache and beat writes it to the row
            # (accounts.token_uses).  Reads still count: a token only ever used to watch must not look unused.
            token_use_note(token, now)
        elif token.last_used_at is None or now - token.last_used_at >= LAST_USED_PRECISION:
            # "Last used" to within five minutes is all the profile shows; writing it on every request made each
            # write a second write on one hot row.  The condition is repeated in the UPDATE so that requests
            # arriving together write it once.
            stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=now - LAST_USED_PRECISION)
            ApiToken.objects.filter(stale, pk=token.pk).update(last_used_at=now)
        # The token's person reads the answer in her own language, as on the pages (accounts.personal):
        # the middleware ran before this authentication and could not know her (issue 13).
        language = getattr(token.user, "language", "")
        if language in dict(settings.LANGUAGES):
            translation.activate(language)
            request._request.LANGUAGE_CODE = language
        return (token.user, token)

    def authenticate_header(self, request):
        return self.keyword

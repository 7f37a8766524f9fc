"""`Authorization: Token <key>` for the REST API, checked against the stored hash."""

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from .models import ApiToken, hash_token
from .personal import local_time, zone
from .token_uses import token_use_note


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
                % {"date": local_time(token.expires_at)}
            )
        # No request writes the token's row (decision 16: a read must not write, and a move gains nothing from a second
        # write on a hot row): its use is noted in the cache and beat writes it (accounts.token_uses).  Reads still
        # count: a token only ever used to watch (a bot polling, an export script) must not look unused.
        token_use_note(token, timezone.now())
        # The token's person reads the answer in her own language and time zone, as on the pages
        # (accounts.personal): the middleware ran before this authentication and could not know her (decision 13).
        # Its `finally` deactivates the zone again after the request.
        language = getattr(token.user, "language", "")
        if language in dict(settings.LANGUAGES):
            translation.activate(language)
            # DRF's Request wraps Django's (`_request`); the ASGI stream front (feed.asgi) hands over a bare
            # ASGIRequest: note the language on whichever request is underneath.
            getattr(request, "_request", request).LANGUAGE_CODE = language
        timezone.activate(zone(token.user.time_zone))
        return (token.user, token)

    def authenticate_header(self, request):
        return self.keyword

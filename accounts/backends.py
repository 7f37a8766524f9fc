"""The login backend: Django's, with failed attempts limited per account and per client address.

Here rather than in the login form so that every password check made for a visitor (the login
page, the admin's) is counted.  A refused attempt never reaches the password hasher, which is
the expensive part (close to a second of CPU): a flood of wrong passwords costs little once the
limit is reached.  Checks without a request (a shell, `Client.login` in tests) are not limited.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from . import limits


class LimitedModelBackend(ModelBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if request is None or username is None or password is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        # The account is counted by the name typed, whether or not it exists, so a lock says nothing
        # about which names are taken.
        granted = limits.take([("login-account", username), ("login-address", limits.client_address(request))])
        if isinstance(granted, limits.Refusal):
            request.login_refusal = granted  # the login form says so instead of "do not match"
            return None
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            # A success is no failure, and it clears the account's earlier ones (not the address's: one
            # account of her own must not let someone try others' passwords without end).
            granted.release()
            limits.clear("login-account", username)
        return user

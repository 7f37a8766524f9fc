"""Turning an account into a bot account (decision 12): irreversible, like Lichess's."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..errors import Conflict
from ..models import Game, Seat

User = get_user_model()


@transaction.atomic
def account_make_bot(*, user) -> "User":
    """Mark `user` a bot account for good; refused while she sits, as a person, at a table not yet over.

    Why refused: a game she began by hand would end played by a program, and her opponents agreed to a person.
    """
    user = User.objects.select_for_update().get(pk=user.pk)
    if user.is_bot_account:
        raise Conflict(_("This account already is a bot account."))
    busy = Seat.objects.filter(
        user=user, abandoned=False, game__status__in=[Game.Status.OPEN, Game.Status.RUNNING]
    ).count()
    if busy:
        # The English text keeps "table(s)" in both forms; other languages get their plural forms.
        raise Conflict(
            ngettext(
                "Finish, resign or leave your %(n)d open or running table(s) first: a bot account "
                "cannot take over games begun by hand.",
                "Finish, resign or leave your %(n)d open or running table(s) first: a bot account "
                "cannot take over games begun by hand.",
                busy,
            )
            % {"n": busy}
        )
    user.is_bot_account = True
    user.save(update_fields=["is_bot_account"])
    return user

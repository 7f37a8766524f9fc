"""Blocking (ruling S7): she blocks or unblocks another player, one service per write; and the one refusal every
path that could bring two blocked people together gives.

The block itself is a row of accounts.models.Block (people and their relations); who is blocked is read with
accounts.selectors (`blocked_between`, `blocked_among`, `blocked_with`), always both ways.  What it changes:
- no invitation or challenge between them, and nobody seats them together at an open table (games.services.tables:
  game_invite, game_join, so invitations, challenges, rematches and the lobby's joins), unless both entered the same
  tournament (its dealing says so);
- the lobby does not list her tables where he sits, or his to her (games.selectors.lobby);
- their chat lines are hidden from each other, and his tell her nothing (chat);
- invitations pending between them when she blocks are withdrawn here, their notices (and those of their chat
  lines) marked read and their emails not sent yet dropped: after the block nothing of his waits for her answer or
  reaches her later in a digest.
Tables already running go on: their moves, clocks and turn notices are the game's, not his.

Private: the refusal says "not possible" in the same words whichever of the two blocked, and the blocked person is
told nothing when it happens.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Block
from accounts.selectors import blocked_among

from .. import hooks
from ..errors import BadRequest, Forbidden, NotFound
from ..models import Game, Invitation, Seat
from . import effects


class NotPossible(Forbidden):
    """Ruling S7: two people kept apart by a block; the words never say which of them blocked."""

    code = "not_possible"


def refuse_if_blocked(user, others, message: str, *, field: str | None = None) -> None:
    """Raise NotPossible(`message`) if `user` and any of `others` are kept apart by a block, either way."""
    if blocked_among(user, others):
        raise NotPossible(message, field=field)


def _logged_in(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise Forbidden(_("Log in to block or unblock a player."))


def _person(username: str):
    person = get_user_model().objects.filter(username=(username or "").strip()).first()
    if person is None:
        raise NotFound(_("There is no player called %(name)s.") % {"name": username}, field="username")
    return person


def _invitations_between(a_id: int, b_id: int):
    """Invitations at tables still open for one of the two where the other sits (whoever sent them)."""
    seated = Seat.objects.filter(game=OuterRef("game"))
    return Invitation.objects.filter(game__status=Game.Status.OPEN).filter(
        Q(user_id=a_id, game__in=seated.filter(user_id=b_id).values("game"))
        | Q(user_id=b_id, game__in=seated.filter(user_id=a_id).values("game"))
    )


def _withdraw_invitations(a_id: int, b_id: int) -> int:
    """Withdraw the invitations pending between them and mark read the notices of those (they ask nothing now)."""
    pending = list(_invitations_between(a_id, b_id).values_list("pk", "game_id", "user_id"))
    if not pending:
        return 0
    Invitation.objects.filter(pk__in=[row[0] for row in pending]).delete()
    # The invitation is gone: its notice is marked read and its email not sent yet dropped (notifications).
    hooks.invitations_withdrawn([(user_id, game_id) for _pk, game_id, user_id in pending])
    tables = {row[1] for row in pending}
    Game.objects.filter(pk__in=tables).update(updated_at=timezone.now())
    for game_id in tables:
        effects.table_touched(game_id)  # the waiting rooms list who is invited
    return len(pending)


def player_block(*, user, username: str) -> tuple[Block, bool]:
    """She blocks `username` (ruling S7); (the block, whether it is new).  400 herself, 404 nobody by that name."""
    _logged_in(user)
    person = _person(username)
    if person.pk == user.pk:
        raise BadRequest(_("You cannot block yourself."), field="username")
    try:
        with transaction.atomic():
            block, created = Block.objects.get_or_create(blocker=user, blocked=person)
            if created:
                _withdraw_invitations(user.pk, person.pk)
                # Unread chat notices of one about the other's lines are silenced too (notifications).
                hooks.players_blocked(user.pk, user.username, person.pk, person.username)
    except IntegrityError:  # the same block a moment ago, from another request
        return Block.objects.get(blocker=user, blocked=person), False
    return block, created


def player_unblock(*, user, username: str) -> None:
    """She lifts her block of `username`; 404 if she had not blocked him (his block of her, if any, stays)."""
    _logged_in(user)
    person = _person(username)
    if not Block.objects.filter(blocker=user, blocked=person).delete()[0]:
        raise NotFound(_("You have not blocked %(name)s.") % {"name": person.username}, field="username")

"""Reads on accounts shared by the profile page and the API (accounts.views, games.api.tokens), and who blocked
whom (ruling S7), asked by every path that could bring two people together."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Exists, OuterRef, Q, QuerySet

from .models import ApiToken, Block


def tokens_of_user(*, user) -> QuerySet[ApiToken]:
    """Her tokens not revoked, newest first (expired ones too: they are shown as expired, until revoked)."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at", "-pk")


def token_of_user(*, user, token_id: int) -> ApiToken | None:
    """One of her tokens not revoked; someone else's, or a revoked one, is simply not there (404)."""
    return tokens_of_user(user=user).filter(pk=token_id).first()


def token_still_valid(*, token_id: int) -> bool:
    """Whether a token still lets its owner in (not revoked, not expired, its owner active), as
    accounts.authentication decides: an open stream asks every few seconds (feed.stream), one query on the
    token's primary key."""
    from django.utils import timezone

    return (
        ApiToken.objects.filter(pk=token_id, revoked_at__isnull=True, user__is_active=True)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .exists()
    )


# --- Blocking (ruling S7) -------------------------------------------------------------------------
#
# A block keeps two people apart whichever of them made it: every check below looks both ways, so what the
# site refuses or hides never says which side blocked.


def _id(user) -> int | None:
    if user is None or not getattr(user, "is_authenticated", True):
        return None
    return getattr(user, "pk", user)


def blocked_among(user, others: Iterable | QuerySet) -> bool:
    """Is there a block, either way, between `user` and any of `others` (people or ids, or a query of user ids,
    e.g. a table's seats: then it runs as a subquery)?  One query."""
    me = _id(user)
    if me is None:
        return False
    if isinstance(others, QuerySet):
        ids = others
    else:
        ids = {i for i in (_id(o) for o in others) if i is not None and i != me}
        if not ids:
            return False
    return Block.objects.filter(Q(blocker_id=me, blocked_id__in=ids) | Q(blocked_id=me, blocker_id__in=ids)).exists()


def blocked_between(a, b) -> bool:
    """Did `a` block `b`, or `b` block `a`?  One query."""
    return blocked_among(a, [b])


def blocked_ids(user) -> set[int]:
    """Everyone `user` blocked or who blocked her, as ids (one query; empty for a visitor)."""
    me = _id(user)
    if me is None:
        return set()
    pairs = Block.objects.filter(Q(blocker_id=me) | Q(blocked_id=me)).values_list("blocker_id", "blocked_id")
    return {other for pair in pairs for other in pair if other != me}


def blocked_with(user, person_field: str = "pk") -> Exists | None:
    """An expression true on the rows whose `person_field` (a user id, e.g. "user" for seats) has a block with
    `user`, either way: joined into a query instead of one more read.  None for a visitor (nothing to exclude)."""
    me = _id(user)
    if me is None:
        return None
    return Exists(
        Block.objects.filter(
            Q(blocker_id=me, blocked_id=OuterRef(person_field)) | Q(blocked_id=me, blocker_id=OuterRef(person_field))
        )
    )


def blocks_of_user(user) -> QuerySet[Block]:
    """The people she blocked (not those who blocked her: that is theirs to know), with their names."""
    return Block.objects.filter(blocker=user).select_related("blocked")

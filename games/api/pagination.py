"""Lists come in pages, read with an opaque cursor (DRF's CursorPagination): a page never repeats or skips an
entry because tables were opened or moves made meanwhile, and no page costs more than the first.

Tables page newest first (`-id`: stable, never reused); my tables the most urgent first (UrgencyPages); the action
log in its own order (`seq`).
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ParseError
from rest_framework.pagination import CursorPagination

from engine.core import all_games

from ..models import Game, Pace

BAD_CURSOR = _(
    "This cursor was not given by the API: follow the `next` and `previous` links, "
    "or leave the cursor out to start from the first page."
)


class _Pages(CursorPagination):
    page_size_query_param = "page_size"

    def get_page_size(self, request):
        # DRF quietly reads a bad page_size as the default and a large one as the maximum; a client that asks
        # for something else than the schema allows is told so (decision 12: the schema says what is accepted).
        text = request.query_params.get(self.page_size_query_param)
        if text is None:
            return self.page_size
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= self.max_page_size:
            raise ParseError(
                _("page_size must be a whole number from 1 to %(max)d.") % {"max": self.max_page_size},
                code="invalid_page_size",
            )
        return int(text)

    def decode_cursor(self, request):
        try:
            return super().decode_cursor(request)
        except NotFound:  # DRF says 404; it is a malformed parameter
            raise ParseError(BAD_CURSOR, code="invalid_cursor") from None


class NewestFirstPages(_Pages):
    """A person's own list, newest first (her mutes, her blocks): 50 a page, 200 at most."""

    ordering = ("-created_at", "-pk")
    page_size = 50
    max_page_size = 200


class TablePages(_Pages):
    ordering = "-id"
    page_size = 50
    max_page_size = 200


class UrgencyPages(TablePages):
    """My tables, the most urgent first (games.selectors.tables_of_user_by_urgency): by three keys, none unique
    but the last, so the cursor holds all three.  (DRF's cursor holds the first key alone and pages over its ties
    by an offset: a page deep among hundreds of tables not waiting for her would cost more than the first.)"""

    ordering = ("urgency", "due", "-id")

    def _get_position_from_instance(self, instance, ordering):
        return _position(instance.urgency, instance.due, instance.pk)

    def decode_cursor(self, request):
        cursor = super().decode_cursor(request)
        if cursor is None or cursor.position is None:
            return cursor
        try:
            urgency, due, pk = cursor.position.split("|")
            position = (int(urgency), datetime.fromisoformat(due), int(pk))
        except ValueError:
            position = None
        if position is None or position[1].tzinfo is None:
            raise ParseError(BAD_CURSOR, code="invalid_cursor")
        return cursor._replace(position=position)

    def paginate_queryset(self, queryset, request, view=None):
        # DRF's own, but past a position on all three keys (_after) where DRF filters on the first alone; the
        # positions it keeps for the links are strings, as DRF's.
        self.request = request
        self.page_size = self.get_page_size(request)
        self.base_url = request.build_absolute_uri()
        self.ordering = self.get_ordering(request, queryset, view)
        self.cursor = self.decode_cursor(request)
        offset, reverse, current = self.cursor or (0, False, None)
        ordering = (
            [key[1:] if key.startswith("-") else f"-{key}" for key in self.ordering] if reverse else self.ordering
        )
        queryset = queryset.order_by(*ordering)
        if current is not None:
            queryset = queryset.filter(_after(ordering, current))
        results = list(queryset[offset : offset + self.page_size + 1])
        self.page = results[: self.page_size]
        following = self._get_position_from_instance(results[-1], ordering) if len(results) > len(self.page) else None
        here = _position(*current) if current is not None else None
        started = current is not None or offset > 0
        if reverse:
            self.page.reverse()
            self.has_next, self.has_previous = started, following is not None
            self.next_position, self.previous_position = here, following
        else:
            self.has_next, self.has_previous = following is not None, started
            self.next_position, self.previous_position = following, here
        return self.page


def _position(urgency: int, due: datetime, pk: int) -> str:
    return f"{urgency}|{due.isoformat()}|{pk}"


def _after(ordering, position) -> Q:
    """Rows strictly after `position` (a value per key) in `ordering` (keys, "-" for descending)."""
    after, same = Q(), Q()
    for key, value in zip(ordering, position, strict=True):
        name = key.lstrip("-")
        after |= same & Q(**{f"{name}__{'lt' if key.startswith('-') else 'gt'}": value})
        same &= Q(**{name: value})
    return after


class LogPages(_Pages):
    ordering = "seq"
    page_size = 200
    max_page_size = 1000


# A page of a list; subclasses add its `results`.  (A comment, not a docstring: drf-spectacular would give each
# subclass without a docstring of its own that description in the schema.)
class PageOut(serializers.Serializer):
    next = serializers.URLField(allow_null=True, help_text="The next page; null on the last.")
    previous = serializers.URLField(allow_null=True, help_text="The page before; null on the first.")


def page_answer(pages: type[_Pages], rows, request, view, results, *, base_url: str | None = None, **fields) -> dict:
    """One page of `rows` as `request` asks, in the shape every list answers: `next`, `previous`, any other
    `fields`, then `results`, which `results(page)` makes of the page's rows.  `base_url`: where the links lead
    when not to this request's own path (a list embedded in another answer)."""
    paginator = pages()
    page = paginator.paginate_queryset(rows, request, view=view)
    if base_url is not None:
        paginator.base_url = base_url
    return {
        "next": paginator.get_next_link(),
        "previous": paginator.get_previous_link(),
        **fields,
        "results": results(page),
    }


def cursor_parameters(pages: type[_Pages]) -> list[OpenApiParameter]:
    return [
        OpenApiParameter(
            "cursor",
            OpenApiTypes.STR,
            description="Where a page starts: copy it from the `next` or "
            "`previous` link of the page before; leave it out for the first page.",
        ),
        OpenApiParameter(
            "page_size",
            {"type": "integer", "minimum": 1, "maximum": pages.max_page_size},
            description=f"Entries a page (default {pages.page_size}, at most {pages.max_page_size}).",
        ),
    ]


def page_schema(item: dict, description: str, **extra_properties) -> dict:
    link = {"type": "string", "format": "uri", "nullable": True}
    return {
        "type": "object",
        "description": description,
        "required": ["next", "previous", "results", *extra_properties],
        "properties": {
            **extra_properties,
            "next": {**link, "description": "The next page; null on the last."},
            "previous": {**link, "description": "The page before; null on the first."},
            "results": {"type": "array", "items": item},
        },
    }


class TableFilters(serializers.Serializer):
    """The filters of the table lists (query parameters); a bad value is 400 naming the parameter."""

    game = serializers.ChoiceField(
        choices=sorted(all_games()), required=False, help_text="Only tables of this game (see /api/catalogue/)."
    )
    players = serializers.IntegerField(
        min_value=1, max_value=8, required=False, help_text="Only tables for this many players."
    )
    pace = serializers.ChoiceField(choices=Pace.values, required=False, help_text="Only tables of this pace.")
    status = serializers.ChoiceField(choices=Game.Status.values, required=False, help_text="Only tables in this state.")
    rated = serializers.BooleanField(required=False, help_text="Only rated (true) or unrated (false) tables.")
    replies_within = serializers.ChoiceField(
        choices=["hour", "day", "3days"],
        required=False,
        help_text="Only tables whose seated people usually reply (median, by correspondence) within an hour, a day "
        "or three days, from their pace profiles (GET /api/players/{username}/, `pace`); people with no replies yet "
        "do not count as fast.",
    )

    def filter(self, queryset):
        from ..selectors.pace import REPLY_WITHIN, replying_within_q

        lookups = {"kind": "game", "players": "players", "pace": "pace", "status": "status", "rated": "rated"}
        queryset = queryset.filter(
            **{field: self.validated_data[name] for field, name in lookups.items() if name in self.validated_data}
        )
        if "replies_within" in self.validated_data:  # decision 29: opponents who usually reply this fast
            queryset = queryset.filter(replying_within_q(REPLY_WITHIN[self.validated_data["replies_within"]]))
        return queryset

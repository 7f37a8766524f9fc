"""A values_list queryset compiled once per shape reads what the queryset reads (games.services.query_shapes,
decision 28, point 3): with other values of the same lengths, other lengths, and the ORM's converters applied."""

from __future__ import annotations

import pytest
from django.db.models import Count, Q

from games.models import Game
from games.services.query_shapes import shaped_rows
from tests.games.tables import topology_table, toppo_table

pytestmark = pytest.mark.django_db


def _build(ids, kinds):
    return (
        Game.objects.filter(pk__in=ids, kind__in=kinds)
        .annotate(seated=Count("seats", filter=Q(seats__user__isnull=False)))
        .values_list("pk", "kind", "options", "created_at", "seated")  # JSON and datetimes converted
    )


def test_the_rows_are_the_querysets_whatever_the_values(owner, member, outsider):
    tables = [topology_table(owner, member), toppo_table(owner, outsider), topology_table(member, outsider)]
    ids = [t.pk for t in tables]
    for chosen, kinds in (
        ([ids[0], ids[1]], ["topology", "toppo"]),
        ([ids[2], ids[1]], ["toppo", "topoum"]),  # the same shape, other values: its SQL compiled once
        ([ids[2]], ["topology"]),
        (ids, ["topology", "toppo"]),
    ):
        fast = shaped_rows(("test",), _build, ids=chosen, kinds=kinds)
        assert sorted(fast) == sorted(_build(chosen, kinds))
        assert all(isinstance(row[2], dict) for row in fast)


def test_a_list_of_values_it_cannot_stand_in_for_is_refused(owner, member):
    with pytest.raises(TypeError):
        shaped_rows(("test-floats",), lambda ids, kinds: _build(ids, kinds), ids=[1.5], kinds=["topology"])

"""GET /api/events/: pages by cursor, resumes after the last id seen, one's own events only."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from feed.models import Event
from feed.services import NewEvent, events_record

pytestmark = pytest.mark.django_db


def add_events(user, n: int, start: int = 0) -> list[int]:
    events_record(
        [NewEvent(user.pk, Event.Kind.MOVE, f"move:0:v{i}", None, {"version": i}) for i in range(start, start + n)]
    )
    return list(Event.objects.filter(user=user).order_by("id").values_list("id", flat=True))


def test_it_pages_by_cursor_and_resumes_where_it_stopped(owner, owner_api):
    ids = add_events(owner, 5)
    first = owner_api.get("/api/events/?after=0&limit=2").json()
    assert [e["id"] for e in first["results"]] == ids[:2] and first["cursor"] == ids[1] and first["more"] is True
    rest = owner_api.get(f"/api/events/?after={first['cursor']}&limit=10").json()
    assert [e["id"] for e in rest["results"]] == ids[2:] and rest["more"] is False
    assert [e["data"]["version"] for e in rest["results"]] == [2, 3, 4]
    # after a disconnect: nothing new, the same cursor back; then a new event, and only it
    idle = owner_api.get(f"/api/events/?after={rest['cursor']}").json()
    assert idle == {"results": [], "cursor": rest["cursor"], "more": False}
    newer = add_events(owner, 1, start=5)[-1]
    assert [e["id"] for e in owner_api.get(f"/api/events/?after={rest['cursor']}").json()["results"]] == [newer]


def test_it_shows_only_her_own_events(owner, member, member_api):
    add_events(owner, 3)
    assert member_api.get("/api/events/?after=0").json()["results"] == []


def test_it_refuses_a_cursor_or_limit_that_is_not_a_number(owner_api):
    for query in ("after=x", "after=-1", "limit=0", "limit=abc", "limit=1000"):
        answer = owner_api.get(f"/api/events/?{query}")
        assert answer.status_code == 400, query
        assert answer.json()["error"] == "bad_request" and answer.json()["detail"]


def test_it_asks_who_you_are(db):
    assert APIClient().get("/api/events/").status_code in (401, 403)


def test_the_schema_names_the_answers_of_the_feed(owner_api):
    schema = owner_api.get("/api/schema/?format=json").json()
    answer = schema["paths"]["/api/events/"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/EventPageOut"}
    assert "text/event-stream" in schema["paths"]["/api/events/stream/"]["get"]["responses"]["200"]["content"]
    assert set(schema["components"]["schemas"]["EventOut"]["properties"]) == {"id", "kind", "table", "created", "data"}


def test_old_events_are_purged_and_recent_ones_kept(owner, settings):
    from datetime import timedelta

    from django.utils import timezone

    from feed.services import events_purge

    settings.TOPOS_EVENTS_RETENTION_DAYS = 14
    old, recent = add_events(owner, 2)
    Event.objects.filter(pk=old).update(created_at=timezone.now() - timedelta(days=15))
    assert events_purge() == 1
    assert list(Event.objects.values_list("id", flat=True)) == [recent]


def test_a_client_paging_at_the_largest_limit_is_told_more_and_gets_every_event(owner, owner_api):
    """At `limit=PAGE_MAX` the page still says whether more events wait, so a client paging at the documented
    maximum reads them all."""
    from feed.selectors import PAGE_MAX

    ids = add_events(owner, PAGE_MAX * 2 + 5)
    seen, cursor, more, pages = [], 0, True, 0
    while more:
        page = owner_api.get(f"/api/events/?after={cursor}&limit={PAGE_MAX}").json()
        seen += [e["id"] for e in page["results"]]
        cursor, more, pages = page["cursor"], page["more"], pages + 1
        assert pages <= 3
    assert seen == ids and pages == 3

"""API tokens from the profile page: the key shown once, rename, revoke, and only my own."""

from datetime import datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import tasks
from accounts.models import ApiToken
from accounts.services import api_token_create
from accounts.token_uses import token_uses_record
from tests.accounts.conftest import htmx

pytestmark = pytest.mark.django_db


def api(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_the_key_is_shown_once_then_only_its_prefix(client, owner):
    client.force_login(owner)
    r = client.post(reverse("token_create"), {"name": "my bot"})
    assert r.status_code == 200
    key = r.context["new_key"]
    token = ApiToken.objects.get(user=owner)
    assert key in r.content.decode() and token.name == "my bot"
    assert key not in (token.digest, token.prefix) and key.startswith("tps_" + token.prefix)
    later = client.get(reverse("profile")).content.decode()
    assert key not in later and token.prefix in later


def test_with_htmx_the_answer_is_the_token_list_fragment(client, owner):
    client.force_login(owner)
    r = client.post(reverse("token_create"), {"name": "phone"}, **htmx())
    page = r.content.decode()
    assert r.status_code == 200 and "<html" not in page and 'id="api-tokens"' in page
    assert r.context["new_key"] in page


def test_a_blank_name_gets_a_default(client, owner):
    client.force_login(owner)
    client.post(reverse("token_create"), {"name": "  "})
    assert ApiToken.objects.get(user=owner).name


def test_a_too_long_name_is_refused(client, owner):
    client.force_login(owner)
    r = client.post(reverse("token_create"), {"name": "x" * 61})
    assert r.status_code == 400 and not ApiToken.objects.filter(user=owner).exists()


def test_the_new_key_authenticates_api_calls(client, owner):
    client.force_login(owner)
    key = client.post(reverse("token_create"), {"name": "script"}).context["new_key"]
    r = api(key).get("/api/tables/mine/")
    assert r.status_code == 200 and r.json()["results"] == []
    assert api(key).get("/api/me/tokens/").json()["results"][0]["last_used_at"] is not None


def test_a_wrong_key_is_refused(db):
    assert api("tps_not-a-real-key").get("/api/tables/mine/").status_code == 401


def test_revoking_from_the_profile_stops_the_key(client, owner):
    token, key = api_token_create(user=owner, name="old")
    assert api(key).get("/api/tables/mine/").status_code == 200
    client.force_login(owner)
    r = client.post(reverse("token_revoke", args=[token.pk]))
    assert r.status_code == 302 and r["Location"].startswith(reverse("profile"))
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert api(key).get("/api/tables/mine/").status_code == 401


def test_revoking_with_htmx_returns_the_list_without_it(client, owner):
    token, _ = api_token_create(user=owner, name="old")
    client.force_login(owner)
    r = client.post(reverse("token_revoke", args=[token.pk]), **htmx())
    assert r.status_code == 200 and f'id="token-{token.pk}"' not in r.content.decode()
    assert "Revoked" in r.content.decode()


def test_rename(client, owner):
    token, _ = api_token_create(user=owner, name="old")
    client.force_login(owner)
    r = client.post(reverse("token_rename", args=[token.pk]), {"name": "tournament bot"})
    assert r.status_code == 302
    token.refresh_from_db()
    assert token.name == "tournament bot"


def test_rename_to_blank_is_refused(client, owner):
    token, _ = api_token_create(user=owner, name="old")
    client.force_login(owner)
    r = client.post(reverse("token_rename", args=[token.pk]), {"name": ""}, **htmx())
    assert r.status_code == 200 and "60 characters" in r.content.decode()
    token.refresh_from_db()
    assert token.name == "old"


def test_another_users_token_is_not_found(client, owner, member):
    theirs, key = api_token_create(user=member, name="bruno's bot")
    client.force_login(owner)
    assert client.post(reverse("token_revoke", args=[theirs.pk])).status_code == 404
    assert client.post(reverse("token_rename", args=[theirs.pk]), {"name": "mine now"}).status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None and theirs.name == "bruno's bot"
    assert api(key).get("/api/tables/mine/").status_code == 200


def test_anonymous_cannot_touch_tokens(client, owner):
    token, _ = api_token_create(user=owner, name="old")
    for url in (reverse("token_create"), reverse("token_revoke", args=[token.pk])):
        r = client.post(url, {"name": "x"})
        assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    token.refresh_from_db()
    assert token.revoked_at is None and ApiToken.objects.count() == 1


def test_token_actions_need_post(client, owner):
    client.force_login(owner)
    assert client.get(reverse("token_create")).status_code == 405


def test_reads_with_a_token_write_nothing_and_the_sweep_records_their_use(client, owner):
    """Decision 16, point 0: a GET makes no UPDATE; its use is noted, shown at once, and written by beat's sweep."""
    client.force_login(owner)
    key = client.post(reverse("token_create"), {"name": "script"}).context["new_key"]
    reader = api(key)
    before = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        assert reader.get("/api/tables/mine/").status_code == 200
        assert reader.head("/api/tables/mine/").status_code == 200
    assert not [q["sql"] for q in queries if not q["sql"].lstrip().upper().startswith("SELECT")]
    assert ApiToken.objects.get(user=owner).last_used_at is None  # not written...
    shown = reader.get("/api/me/tokens/").json()["results"][0]["last_used_at"]
    assert shown is not None and datetime.fromisoformat(shown) >= before - timedelta(seconds=1)  # ...yet shown
    assert "never" not in client.get(reverse("profile")).content.decode().split("script")[1].split("</tr>")[0]
    assert token_uses_record() == 1
    written = ApiToken.objects.get(user=owner).last_used_at
    assert before - timedelta(seconds=1) <= written <= timezone.now()
    assert token_uses_record() == 0  # nothing later to write
    assert reader.get("/api/me/tokens/").json()["results"][0]["last_used_at"] == written.isoformat().replace(
        "+00:00", "Z"
    )


def test_a_write_with_a_token_notes_its_use_and_does_not_write_the_token(owner):
    token, key = api_token_create(user=owner, name="mover")
    writer = api(key)
    with CaptureQueriesContext(connection) as queries:
        assert writer.post("/api/tables/", {"game": "topology", "players": 2}, format="json").status_code == 201
    assert not [q["sql"] for q in queries if "accounts_apitoken" in q["sql"] and "SELECT" not in q["sql"][:10]]
    assert ApiToken.objects.get(pk=token.pk).last_used_at is None
    assert writer.get("/api/me/tokens/").json()["results"][0]["last_used_at"] is not None
    assert token_uses_record() == 1 and ApiToken.objects.get(pk=token.pk).last_used_at is not None


def test_the_sweep_never_puts_an_earlier_use_back(owner):
    token, key = api_token_create(user=owner, name="both")
    assert api(key).get("/api/tables/mine/").status_code == 200  # noted now
    later = timezone.now() + timedelta(minutes=1)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=later)  # a later time, written since
    assert token_uses_record() == 0
    assert ApiToken.objects.get(pk=token.pk).last_used_at == later


def test_beat_writes_the_noted_uses_every_five_minutes(settings, owner):
    entry = settings.CELERY_BEAT_SCHEDULE["token-uses"]
    assert entry["task"] == tasks.token_uses_record.name and entry["schedule"] == 300.0
    token, key = api_token_create(user=owner, name="watcher")
    assert api(key).get("/api/tables/mine/").status_code == 200
    assert tasks.token_uses_record.run() == 1 and ApiToken.objects.get(pk=token.pk).last_used_at is not None

"""API tokens from the profile page: the key shown once, rename, revoke, and only my own."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create
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
    assert ApiToken.objects.get(user=owner).last_used_at is not None


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


def test_reads_with_a_token_do_not_write_its_last_use_more_than_every_five_minutes(client, owner):
    from datetime import timedelta

    from django.utils import timezone

    client.force_login(owner)
    key = client.post(reverse("token_create"), {"name": "script"}).context["new_key"]
    reader = api(key)
    assert reader.get("/api/tables/mine/").status_code == 200
    first = ApiToken.objects.get(user=owner).last_used_at
    assert first is not None
    for _ in range(3):
        assert reader.get("/api/tables/mine/").status_code == 200
    assert ApiToken.objects.get(user=owner).last_used_at == first  # no write on these reads
    ApiToken.objects.filter(user=owner).update(last_used_at=first - timedelta(minutes=6))
    assert reader.get("/api/tables/mine/").status_code == 200
    assert ApiToken.objects.get(user=owner).last_used_at > first - timedelta(seconds=1)
    assert ApiToken.objects.get(user=owner).last_used_at <= timezone.now()

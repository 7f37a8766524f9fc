"""Invitations (each tells, and may email, the invited player) are limited per inviter, per client address
and per invited player: 429 with Retry-After for the API, the message in the table page."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.db.models import F
from django.test import Client

from accounts.models import LimitHit
from accounts.services import user_create
from games import services
from games.models import Invitation
from notifications.models import Notification

pytestmark = pytest.mark.django_db

PER_SENDER, WINDOW = settings.TOPOS_RATE_LIMITS["invite-sender"]
PER_RECIPIENT = settings.TOPOS_RATE_LIMITS["invite-recipient"][0]


def people(n: int, prefix: str = "guest") -> list:
    return [
        user_create(username=f"{prefix}{i}", email=f"{prefix}{i}@example.com", password="x-long-password")
        for i in range(n)
    ]


def table(user):
    return services.game_create(user=user, kind="topology", players=4)


def invite(client, game, username, **extra):
    return client.post(f"/api/tables/{game.pk}/invite/", {"username": username}, format="json", **extra)


def time_passes(seconds: int) -> None:
    LimitHit.objects.update(created_at=F("created_at") - timedelta(seconds=seconds))


def test_one_player_sending_too_many_invitations_gets_429_with_retry_after(owner, owner_api):
    game = table(owner)
    guests = people(PER_SENDER + 1)
    for guest in guests[:PER_SENDER]:
        assert invite(owner_api, game, guest.username).status_code == 200
    refused = invite(owner_api, game, guests[-1].username)
    assert refused.status_code == 429
    body = refused.json()
    assert body["error"] == "rate_limited" and body["detail"].startswith("You have sent too many invitations")
    assert "Try again in" in body["detail"]
    assert 0 < body["retry_after"] == int(refused["Retry-After"]) <= WINDOW
    # Nothing was made, nobody was told.
    assert not Invitation.objects.filter(user=guests[-1]).exists()
    assert not Notification.objects.filter(recipient=guests[-1]).exists()
    time_passes(WINDOW + 1)
    assert invite(owner_api, game, guests[-1].username).status_code == 200


def test_one_player_receiving_too_many_invitations_is_protected(owner, owner_api, member, member_api):
    tables = [table(owner) for _ in range(PER_RECIPIENT)] + [table(member)]
    for game in tables[:PER_RECIPIENT]:
        assert invite(owner_api, game, "chen-the-target").status_code == 404  # no such player: counts nothing
    target = user_create(username="chen-the-target", email="c@example.com", password="x-long-password")
    for game in tables[:PER_RECIPIENT]:
        assert invite(owner_api, game, target.username).status_code == 200
    refused = invite(member_api, tables[-1], target.username)  # another inviter
    assert refused.status_code == 429 and "This player has been sent too many invitations" in refused.json()["detail"]


def test_inviting_the_same_player_again_sends_nothing_and_counts_nothing(owner, owner_api, member):
    game = table(owner)
    for _ in range(PER_SENDER + 5):
        assert invite(owner_api, game, member.username).status_code == 200
    assert Invitation.objects.filter(user=member).count() == 1
    assert LimitHit.objects.filter(rule="invite-sender").count() == 1


def test_invitations_from_one_address_are_limited(owner, owner_api, member, member_api, settings):
    settings.TOPOS_RATE_LIMITS = {**settings.TOPOS_RATE_LIMITS, "invite-address": (3, 3600)}
    guests = people(4)
    one, two = table(owner), table(member)
    assert invite(owner_api, one, guests[0].username, REMOTE_ADDR="198.51.100.7").status_code == 200
    assert invite(owner_api, one, guests[1].username, REMOTE_ADDR="198.51.100.7").status_code == 200
    assert invite(member_api, two, guests[2].username, REMOTE_ADDR="198.51.100.7").status_code == 200
    refused = invite(member_api, two, guests[3].username, REMOTE_ADDR="198.51.100.7")
    assert refused.status_code == 429 and "from your network" in refused.json()["detail"]
    assert invite(member_api, two, guests[3].username, REMOTE_ADDR="192.0.2.1").status_code == 200


def test_a_refusal_is_not_kept_as_the_answer_to_its_idempotency_key(owner, owner_api):
    game = table(owner)
    guests = people(PER_SENDER + 1)
    for guest in guests[:PER_SENDER]:
        invite(owner_api, game, guest.username)
    key = {"HTTP_IDEMPOTENCY_KEY": "invite-the-last-one"}
    assert invite(owner_api, game, guests[-1].username, **key).status_code == 429
    time_passes(WINDOW + 1)
    retry = invite(owner_api, game, guests[-1].username, **key)
    assert retry.status_code == 200 and "Idempotent-Replayed" not in retry
    assert invite(owner_api, game, guests[-1].username, **key)["Idempotent-Replayed"] == "true"


def test_the_table_page_shows_the_refusal(owner):
    game = table(owner)
    guests = people(PER_SENDER + 1)
    for guest in guests[:PER_SENDER]:
        services.game_invite(user=owner, game_id=game.pk, username=guest.username)
    client = Client()
    client.force_login(owner)
    reply = client.post(f"/tables/{game.pk}/invite/", {"username": guests[-1].username}, HTTP_HX_REQUEST="true")
    assert reply.status_code == 429 and reply["X-Topos-Fragment"] == "1" and int(reply["Retry-After"]) > 0
    assert "You have sent too many invitations lately." in reply.content.decode()
    spanish = client.post(
        f"/tables/{game.pk}/invite/",
        {"username": guests[-1].username},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert spanish.status_code == 429 and "invitaciones" in spanish.content.decode()


def test_the_schema_documents_the_429(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "429" in schema["paths"]["/api/tables/{id}/invite/"]["post"]["responses"]
    assert "Retry-After" in schema["info"]["description"] and "24 hours" in schema["info"]["description"]


def test_a_service_call_without_an_address_still_counts_the_inviter(owner, member):
    """A shell or a task has no client address: the per-player limits still hold."""
    game = table(owner)
    services.game_invite(user=owner, game_id=game.pk, username=member.username)
    assert set(LimitHit.objects.values_list("rule", flat=True)) == {"invite-sender", "invite-recipient"}

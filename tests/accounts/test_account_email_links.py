"""Every link in every email starts with SITE_URL, whatever host the request that sent it named (decision 9)."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from tests.accounts.conftest import PASSWORD

pytestmark = pytest.mark.django_db(transaction=True)
SITE = "https://play.topos.example"
OTHER_HOST = "other.example:8080"  # an address the site also answers on (a proxy, an IP, a typo'd alias)


@pytest.fixture(autouse=True)
def two_addresses(settings):
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "other.example"]


def links(mail) -> list[str]:
    return re.findall(r"https?://\S+", mail.body)


def assert_all_on_site(mail, expect: str) -> None:
    found = links(mail)
    assert any(expect in link for link in found), mail.body
    assert all(link == SITE or link.startswith(SITE + "/") for link in found), found


def test_the_activation_link_uses_site_url(mailoutbox):
    client = Client(HTTP_HOST=OTHER_HOST)
    client.post(
        reverse("signup"),
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": "violet-tiles-on-a-hex",
            "password2": "violet-tiles-on-a-hex",
        },
    )
    (mail,) = mailoutbox
    assert_all_on_site(mail, "/accounts/activate/")
    # and the link works on the site
    path = links(mail)[0].removeprefix(SITE)
    assert Client().get(path).status_code == 200


def test_the_already_registered_note_uses_site_url(owner, mailoutbox):
    Client(HTTP_HOST=OTHER_HOST).post(
        reverse("signup"),
        {
            "username": "mallory",
            "email": owner.email,
            "password1": "violet-tiles-on-a-hex",
            "password2": "violet-tiles-on-a-hex",
        },
    )
    (mail,) = mailoutbox
    assert_all_on_site(mail, reverse("password_reset"))


def test_the_password_reset_link_uses_site_url(owner, mailoutbox, celery_eager):
    response = Client(HTTP_HOST=OTHER_HOST).post(reverse("password_reset"), {"email": owner.email})
    assert response.status_code == 302
    (mail,) = mailoutbox
    assert_all_on_site(mail, "/accounts/password/reset/")
    assert "other.example" not in mail.body


def test_the_invitation_link_uses_site_url(owner, member, mailoutbox, celery_eager):
    game = services.game_create(
        user=owner, kind="topology", players=2, options={}, pace="correspondence", turn_seconds=None, bots=[]
    )
    client = Client(HTTP_HOST=OTHER_HOST)
    assert client.login(username=owner.username, password=PASSWORD)
    client.post(reverse("table_invite", args=[game.pk]), {"username": member.username})
    (mail,) = mailoutbox
    assert mail.to == [member.email]
    assert_all_on_site(mail, f"/tables/{game.pk}/")

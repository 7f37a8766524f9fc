"""`manage.py seed_demo`: the demo account of the README, safe to run again."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

User = get_user_model()
pytestmark = pytest.mark.django_db


def seed() -> str:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def test_it_creates_the_demo_account_and_says_how_to_log_in(client):
    out = seed()
    assert "demo" in out and "topos-demo" in out and "/accounts/login/" in out
    assert client.login(username="demo", password="topos-demo")
    assert User.objects.get(username="demo").email == "demo@topos.localhost"


def test_it_is_idempotent_and_puts_the_password_back(client):
    seed()
    demo = User.objects.get(username="demo")
    demo.set_password("changed-by-a-visitor")
    demo.save()
    seed()
    assert User.objects.filter(username="demo").count() == 1
    assert User.objects.get(username="demo").pk == demo.pk
    assert client.login(username="demo", password="topos-demo")

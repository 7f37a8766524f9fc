"""Accounts tests: helpers to read links out of mails."""

from __future__ import annotations

import re

from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.models import Game

PASSWORD = "a-long-test-password"  # the password of the shared personas (tests/conftest.py)


def links_in(mail) -> list[str]:
    """The paths of the site's links in a mail body (host dropped, the test client needs paths)."""
    return [m.group(1) for m in re.finditer(r"https?://[^/\s]+(/\S*)", mail.body)]


def htmx(**extra) -> dict:
    return {"HTTP_HX_REQUEST": "true", **extra}


def finish(game: Game, results: dict[int, tuple[int, float]]) -> Game:
    """Mark a started game over with given (rank, score) per seat; how it ended is not under test here."""
    game.status, game.finished_at = Game.Status.FINISHED, timezone.now()
    game.save(update_fields=["status", "finished_at"])
    for seat in game.seats.all():
        seat.rank, seat.score = results[seat.index]
        seat.save(update_fields=["rank", "score"])
    return game


def signed_up(mailoutbox, name: str = "lucia", language: str = "es-ES,es;q=0.9") -> User:
    """An account made as a person makes hers: the sign-up form in her browser's language, then the mailed link."""
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    browser.cookies["tz"] = "America/Mexico_City"
    password = "a-long-test-password"
    answer = browser.post(
        "/accounts/signup/",
        {"username": name, "email": f"{name}@example.com", "password1": password, "password2": password},
    )
    assert answer.status_code == 302
    [link] = [p for p in links_in(mailoutbox[-1]) if "/activate/" in p]
    assert browser.post(link).status_code == 302
    return User.objects.get(username=name)

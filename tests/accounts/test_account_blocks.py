"""Blocking from the pages (ruling S7): Block and Unblock on a player's page, in English, Spanish and Traditional
Chinese; her blocked players listed on her profile, each with its Unblock; the lobby of the home page and the
challenge form after a block."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Block
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

WORDS = {
    "en": {
        "block": "Block bruno",
        "unblock": "Unblock bruno",
        "blocked": "You blocked bruno.",
        "list": "Blocked players",
    },
    "es": {
        "block": "Bloquear a bruno",
        "unblock": "Desbloquear a bruno",
        "blocked": "Has bloqueado a bruno.",
        "list": "Jugadores bloqueados",
    },
    "zh-hant": {
        "block": "封鎖 bruno",
        "unblock": "解除封鎖 bruno",
        "blocked": "你已封鎖 bruno。",
        "list": "已封鎖的玩家",
    },
}


def logged_in(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def form_action(page: str, button: str) -> str:
    """The action of the form whose submit button reads `button` (the page's own words, not a guessed URL)."""
    for form in re.findall(r"<form.*?</form>", page, re.S):
        if f">{button}</button>" in form:
            return re.search(r'action="([^"]+)"', form).group(1)
    raise AssertionError(f"no form with a {button!r} button")


@pytest.mark.parametrize("language", WORDS)
def test_block_and_unblock_from_the_player_page(owner, member, language):
    words = WORDS[language]
    ana = logged_in(owner, language)
    page = ana.get(reverse("player", args=["bruno"])).content.decode()
    assert words["block"] in page and words["unblock"] not in page
    after = ana.post(form_action(page, words["block"]), follow=True)
    assert after.redirect_chain[-1][0] == reverse("player", args=["bruno"])
    assert Block.objects.filter(blocker=owner, blocked=member).exists()
    page = after.content.decode()
    assert words["blocked"] in page and words["unblock"] in page and ">" + words["block"] + "<" not in page
    assert reverse("table_new") + "?opponent=bruno" not in page  # no Challenge button for someone she blocked
    after = ana.post(form_action(page, words["unblock"]), {"unblock": "1"}, follow=True)
    assert not Block.objects.exists() and words["block"] in after.content.decode()


@pytest.mark.parametrize("language", WORDS)
def test_her_profile_lists_whom_she_blocked_and_unblocks_there(owner, member, outsider, language):
    words = WORDS[language]
    ana = logged_in(owner, language)
    ana.post(reverse("player_block", args=["bruno"]))
    Block.objects.create(blocker=outsider, blocked=owner)  # chen blocked her: never shown to her
    page = ana.get(reverse("profile")).content.decode()
    assert words["list"] in page and words["unblock"] in page and "chen" not in page
    after = ana.post(form_action(page, words["unblock"]), {"unblock": "1", "next": "profile"})
    assert after.status_code == 302 and after["Location"] == reverse("profile") + "#blocked-players"
    assert list(Block.objects.values_list("blocker__username", flat=True)) == ["chen"]


def test_the_page_says_nothing_of_his_block_and_refuses_his_challenge_plainly(owner, member):
    Block.objects.create(blocker=member, blocked=owner)  # bruno blocked ana
    ana = logged_in(owner, "en")
    page = ana.get(reverse("player", args=["bruno"])).content.decode()
    assert "Block bruno" in page and "You blocked" not in page and "Unblock" not in page  # as if nothing happened
    form = ana.post(
        reverse("table_new"),
        {"opponent": "bruno", "game": "topology", "players": "2", "pace": "correspondence", "days": "3"},
    )
    assert form.status_code == 400 and "It is not possible to challenge bruno." in form.content.decode()
    assert not Game.objects.exists()


def test_a_visitor_sees_no_block_button_and_posting_needs_a_login(client, member):
    page = client.get(reverse("player", args=["bruno"])).content.decode()
    assert "Block bruno" not in page
    answer = client.post(reverse("player_block", args=["bruno"]))
    assert answer.status_code == 302 and reverse("login") in answer["Location"] and not Block.objects.exists()


def test_the_home_page_lobby_leaves_out_tables_where_a_blocked_player_sits(owner, member, outsider):
    his = services.game_create(user=member, kind="topology", players=2)
    chens = services.game_create(user=outsider, kind="topology", players=2)
    ana = logged_in(owner, "en")
    listed = [g["id"] for g in ana.get("/").context["open_tables"]]
    assert his.pk in listed and chens.pk in listed
    ana.post(reverse("player_block", args=["bruno"]))
    listed = [g["id"] for g in ana.get("/").context["open_tables"]]
    assert his.pk not in listed and chens.pk in listed
    # Joining from his table's page is refused in plain words.
    refused = ana.post(reverse("table_join", args=[his.pk]))
    assert refused.status_code == 403 and "It is not possible for you to join this table." in refused.content.decode()

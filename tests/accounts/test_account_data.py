"""Ruling S8: everything the site holds about her, as one JSON file (page and API), from a registry of sections.

Rows of a model that no section claims are not forgotten: the section "other" lists them from the model
registry, secrets left out; links kept out on purpose (another person's block of her) are named.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts.data_export import COVERED, NOT_EXPORTED, SECTIONS, account_data
from accounts.deletion import user_links
from accounts.services import api_token_create
from chat.services import chat_post
from games import tasks
from games.models import PaceProfile
from games.services.blocks import player_block
from tests.conftest import api_client_for
from tests.games.tables import topology_table

pytestmark = pytest.mark.django_db


def test_the_sections_and_the_links_they_name_exist():
    labels = {link.label for link in user_links()}
    assert set(COVERED) <= labels, sorted(set(COVERED) - labels)
    assert set(NOT_EXPORTED) <= labels, sorted(set(NOT_EXPORTED) - labels)
    assert {"profile", "settings", "tokens", "blocks", "games", "notifications", "chat"} <= set(SECTIONS)


def test_her_file_holds_her_profile_games_chat_notifications_blocks_and_token_names_never_secrets(
    owner, member, outsider
):
    game = topology_table(owner, member)
    tasks.game_effects.run(game.pk)  # her turn told, as the worker tells it
    chat_post(user=owner, game_id=game.pk, body="hello from ana")
    player_block(user=owner, username=outsider.username)
    player_block(user=outsider, username=owner.username)  # his block of her is his, not hers to read
    _token, key = api_token_create(user=owner, name="my script")
    api = api_client_for(owner)

    answer = api.get("/api/me/data/")
    assert answer.status_code == 200
    assert "attachment" in answer["Content-Disposition"]
    data = answer.json()
    assert data["format"] == "topos-account-data/1"
    assert data["profile"]["username"] == "ana" and data["profile"]["email"] == "ana@example.com"
    assert data["settings"]["auto_play_forced"] is False
    assert {t["name"] for t in data["tokens"]} >= {"my script", "tests"}
    assert [b["blocked"] for b in data["blocks"]] == ["chen"]
    assert [line["body"] for line in data["chat"]["written"]] == ["hello from ana"]
    tables = [g["table"] for g in data["games"]]
    assert tables[0]["id"] == game.pk and tables[0]["my_seat"] == 0
    assert data["notifications"]["received"], "her turn was told"
    assert "pace" in data and PaceProfile.objects.filter(user=owner).exists()

    text = json.dumps(data)
    assert key not in text and key[4:20] not in text  # the key, never
    assert owner.password not in text
    assert "digest" not in text
    # Nothing in the generic section from the links kept out: who blocked her is not hers.
    assert "accounts.Block.blocked" not in data["other"]


def test_the_other_sections_rows_come_through_the_generic_section(owner, member):
    data = account_data(owner)
    assert isinstance(data["other"], dict)
    for label in data["other"]:
        assert label not in COVERED and label not in NOT_EXPORTED


def test_the_page_offers_the_download_and_others_cannot_read_hers(owner, member):
    page = Client()
    assert page.get("/accounts/data/download/").status_code == 302  # to the login page
    page.force_login(owner)
    assert page.get("/accounts/data/").status_code == 200
    answer = page.get("/accounts/data/download/")
    assert answer.status_code == 200 and answer.json()["profile"]["username"] == "ana"
    assert api_client_for(member).get("/api/me/data/").json()["profile"]["username"] == "bruno"

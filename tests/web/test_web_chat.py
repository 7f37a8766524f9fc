"""The table page's chat panel (decision 17, point 1): loaded by htmx, escaped, written, refused with its message,
and each message with the buttons its reader may use."""

from __future__ import annotations

import pytest
from django.test import Client

from chat.models import ChatMessage, ChatMute, ChatReport
from chat.services import chat_post
from games import services
from tests.web.conftest import HX

pytestmark = pytest.mark.django_db


def chat_fragment(client, game, query: str = "") -> str:
    answer = client.get(f"/tables/{game.pk}/chat/{query}", **HX)
    assert answer.status_code == 200, answer.status_code
    return answer.content.decode()


def test_the_table_page_has_the_chat_panel_and_its_script(game, owner_client):
    page = owner_client.get(f"/tables/{game.pk}/").content.decode()
    assert 'id="chat"' in page and f'hx-get="/tables/{game.pk}/chat/"' in page and "chat/chat.js" in page
    assert f'hx-post="/tables/{game.pk}/chat/post/"' in page and 'name="body"' in page
    logged_out = Client().get(f"/tables/{game.pk}/").content.decode()
    assert 'id="chat"' in logged_out and 'name="body"' not in logged_out and "Log in to write" in logged_out


def test_a_message_is_escaped_on_the_page(game, owner, member_client):
    chat_post(user=owner, game_id=game.pk, body='<script>alert("x")</script><b>bold</b>')
    html = chat_fragment(member_client, game)
    assert "<script>alert" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in html


def test_posting_from_the_page_answers_the_fresh_list(game, owner_client):
    answer = owner_client.post(f"/tables/{game.pk}/chat/post/", {"body": "hello table"}, **HX)
    assert answer.status_code == 200 and "hello table" in answer.content.decode()
    assert ChatMessage.objects.get().body == "hello table"
    # Without htmx the form posts and comes back to the table.
    plain = owner_client.post(f"/tables/{game.pk}/chat/post/", {"body": "again"})
    assert plain.status_code == 302 and plain["Location"] == f"/tables/{game.pk}/#chat"


def test_the_poll_is_204_while_the_chat_has_not_changed(game, owner, member_client):
    html = chat_fragment(member_client, game)
    stamp = html.split('data-stamp="', 1)[1].split('"', 1)[0]
    assert member_client.get(f"/tables/{game.pk}/chat/?stamp={stamp}", **HX).status_code == 204
    chat_post(user=owner, game_id=game.pk, body="news")
    assert "news" in chat_fragment(member_client, game, f"?stamp={stamp}")


def test_a_refusal_shows_in_the_chat_with_its_status(game, owner_client, settings):
    empty = owner_client.post(f"/tables/{game.pk}/chat/post/", {"body": "  "}, **HX)
    assert empty.status_code == 400 and "Write something" in empty.content.decode()
    assert empty["X-Topos-Fragment"] == "1"
    settings.TOPOS_CHAT_BURST = (1, 10)
    assert owner_client.post(f"/tables/{game.pk}/chat/post/", {"body": "one"}, **HX).status_code == 200
    fast = owner_client.post(f"/tables/{game.pk}/chat/post/", {"body": "two"}, **HX)
    assert fast.status_code == 429 and 1 <= int(fast["Retry-After"]) <= 10
    assert "too fast" in fast.content.decode() and ChatMessage.objects.count() == 1


def test_players_do_not_see_spectators_while_the_game_runs(game, outsider, member, owner_client, outsider_client):
    chat_post(user=outsider, game_id=game.pk, body="play the left tile")
    html = chat_fragment(owner_client, game)
    assert "play the left tile" not in html and "messages show here once the game is over" in html
    assert "play the left tile" in chat_fragment(outsider_client, game)
    page = outsider_client.get(f"/tables/{game.pk}/").content.decode()
    assert "Write as a spectator" in page
    services.game_resign(game_id=game.pk, user=member)
    assert "play the left tile" in chat_fragment(owner_client, game)


def test_delete_report_and_mute_from_the_page(game, owner, member, owner_client, member_client):
    mine = chat_post(user=owner, game_id=game.pk, body="typo")
    theirs = chat_post(user=member, game_id=game.pk, body="rude")
    html = chat_fragment(owner_client, game)
    assert (
        f"/tables/{game.pk}/chat/{mine.pk}/delete/" in html
        and f"/tables/{game.pk}/chat/{theirs.pk}/delete/" not in html
    )
    assert f"/tables/{game.pk}/chat/{theirs.pk}/report/" in html and "Mute bruno" in html
    assert member_client.post(f"/tables/{game.pk}/chat/{mine.pk}/delete/", **HX).status_code == 403
    deleted = owner_client.post(f"/tables/{game.pk}/chat/{mine.pk}/delete/", **HX).content.decode()
    assert "message deleted" in deleted and ">typo<" not in deleted
    reported = owner_client.post(f"/tables/{game.pk}/chat/{theirs.pk}/report/", {"reason": "abuse"}, **HX)
    assert reported.status_code == 200 and "moderators will look" in reported.content.decode()
    assert ChatReport.objects.get().message == theirs
    muted = owner_client.post(f"/tables/{game.pk}/chat/mute/", {"username": "bruno"}, **HX).content.decode()
    assert ChatMute.objects.filter(user=owner, muted=member).exists() and ">rude<" not in muted
    assert "1 player muted" in muted
    owner_client.post(f"/tables/{game.pk}/chat/mute/", {"username": "bruno", "unmute": "1"}, **HX)
    assert not ChatMute.objects.exists() and "rude" in chat_fragment(owner_client, game)


def test_a_private_tables_chat_is_not_found_without_its_code(owner, outsider_client):
    game = services.game_create(user=owner, kind="topology", players=2, private=True)
    chat_post(user=owner, game_id=game.pk, body="secret plans")
    assert outsider_client.get(f"/tables/{game.pk}/chat/", **HX).status_code == 404
    assert outsider_client.post(f"/tables/{game.pk}/chat/post/", {"body": "x"}, **HX).status_code == 404
    assert "secret plans" in chat_fragment(outsider_client, game, f"?code={game.invite_code}")

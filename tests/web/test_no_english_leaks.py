"""No English leaks into the words a Spanish or Chinese reader gets from a game (decision 13, point 3).

For es and zh-Hant, a running and a finished table of every game are played through the services
with random legal moves; the log on the table page and on the replay page, the API log, a refused
move, the notifications page and the emails are then read as the players read them, and every
word that is English is reported.  "English" is a word of the catalogue's English texts (msgids of
the site) or of the words the engines used to write, that the translation never uses itself: so
"total" (Spanish too) passes, "turn" fails.  Names of players, numbers and game names are allowed.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail
from django.utils import timezone

from accounts.personal import her_words
from engine.core import make_rng
from games import services, tasks
from games.models import Game, Seat
from games.selectors.positions import legal_actions_for
from notifications.emails import notification_email
from notifications.models import Notification
from notifications.texts import notification_words
from tests.conftest import api_client_for
from tests.games.tables import open_table
from tests.web.conftest import client_for
from tests.web.test_i18n import read_po

pytestmark = pytest.mark.django_db(transaction=True)

LOCALE_DIR = Path(settings.LOCALE_PATHS[0])
WORD = re.compile(r"[A-Za-z][a-z]{3,}")
# Words the engines wrote in their English log lines before decision 13, beyond the catalogue's.
ENGINE_WORDS = {
    "seat",
    "renews",
    "reveals",
    "tops",
    "matches",
    "wrongly",
    "penalty",
    "interrupted",
    "lays",
    "display",
    "resolves",
    "carried",
    "void",
    "placed",
    "ended",
    "scored",
    "ring",
    "around",
    "turned",
    "half",
    "aims",
    "enters",
    "moves",
    "plays",
    "slot",
    "medal",
    "medals",
    "mole",
    "moles",
    "barracks",
    "lost",
    "destroyed",
    "splits",
    "removed",
    "draws",
    "leaves",
    "unused",
    "line",
    "crate",
    "prisoner",
    "her",
    "takes",
    "back",
    "ends",
    "turn",
    "the",
    "with",
    "from",
    "onto",
}
ALLOWED = {"ana", "bruno", "topology", "topoum", "toppo", "bot", "random", "greedy", "strong", "expert", "null"}


def _english_words() -> set[str]:
    words = set(ENGINE_WORDS)
    for entry in read_po(LOCALE_DIR / "es" / "LC_MESSAGES" / "django.po"):
        text = re.sub(r"%\(\w+\)[-+ #0-9.]*[sdifr]|\{[^}]*\}|<[^>]*>", " ", entry["msgid"])
        words.update(w.lower() for w in WORD.findall(text))
    return words


def _translated_words(lang: str) -> set[str]:
    words = set()
    for entry in read_po(LOCALE_DIR / lang / "LC_MESSAGES" / "django.po"):
        # A "translation" that is the English itself (a line left untranslated) teaches nothing of the language.
        for text in (t for t in entry["msgstr"].values() if t not in (entry["msgid"], entry["msgid_plural"])):
            words.update(w.lower() for w in WORD.findall(re.sub(r"%\(\w+\)[-+ #0-9.]*[sdifr]", " ", text)))
    return words


def english_in(text: str, english: set[str], native: set[str]) -> list[str]:
    """The English words of `text` that the reader's language does not use itself (addresses left out)."""
    # Addresses, and action types quoted as the API spells them ("end_turn"), are not words to translate.
    text = re.sub(r"https?://\S+|\"[a-z_]+\"", " ", text)
    return sorted(
        {w for w in (m.lower() for m in WORD.findall(text)) if w in english and w not in native and w not in ALLOWED}
    )


def words_in_her_language(note: Notification) -> str:
    """A notification as its recipient reads it (it stores data, worded when read: decision 13)."""
    with her_words(note.recipient):
        return notification_words(note)


def visible(page: str, pattern: str) -> str:
    """The text of the parts of `page` matching `pattern` (the log, the error), tags and escapes removed."""
    parts = re.findall(pattern, page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", " ".join(parts)))


def _play(game: Game, users: dict[int, object], rng, steps: int, *, to_end: bool) -> Game:
    """Random legal moves through the services; moves that shed cards or end turns are preferred."""
    for _ in range(steps):
        game.refresh_from_db()
        if not game.is_running or not to_end and steps <= 0:
            break
        seat = game.to_act[0]
        legal = [a for a in legal_actions_for(game, seat) if a["type"] not in ("undo", "propose_replace")]
        eager = [a for a in legal if a["type"] in ("toppo", "top", "match", "end_turn", "agree_replace")]
        action = rng.choice(eager if eager and rng.random() < 0.9 else legal)
        services.action_submit(game_id=game.pk, user=users[seat], action=action, expected_version=game.version)
    game.refresh_from_db()
    return game


GAMES = {
    "topology": ({}, "correspondence"),
    "toppo": ({"hands": 1}, "correspondence"),
    "topoum": ({}, "correspondence"),
}


@pytest.fixture(autouse=True)
def celery_in_process(celery_eager, settings):
    """Notifications and the bot's missed turns run inline, as in tests/notifications."""
    settings.SITE_URL = "https://topos.example"


@pytest.mark.parametrize("lang", ["es", "zh-hant"])
@pytest.mark.parametrize("kind", sorted(GAMES))
def test_a_spanish_or_chinese_reader_gets_no_english(kind, lang, owner, member):
    english = _english_words()
    native = _translated_words("zh_Hant" if lang == "zh-hant" else lang)
    for user in (owner, member):
        user.language = lang
        user.save(update_fields=["language"])
    options, pace = GAMES[kind]
    users = {0: owner, 1: member}
    rng = make_rng(f"no-english-{kind}-{lang}", 0)
    texts: dict[str, str] = {}

    running = open_table(kind, owner, member, options=options, pace=pace, seed=f"words-{kind}-1")
    running = _play(running, users, rng, 25, to_end=False)
    # A missed deadline: the bot plays the turn and the player is told, with the bot's moves in words.
    Seat.objects.filter(game=running, index__in=running.to_act).update(deadline=timezone.now() - timedelta(seconds=1))
    tasks.deadlines_sweep()

    finished = open_table(kind, owner, member, options=options, pace=pace, seed=f"words-{kind}-2")
    finished = _play(finished, users, rng, 6000, to_end=True)
    assert finished.status == Game.Status.FINISHED

    ana, api = client_for(owner), api_client_for(owner)
    for name, game in (("running", running), ("finished", finished)):
        page = ana.get(f"/tables/{game.pk}/").content.decode()
        texts[f"{name} table log"] = visible(page, r'<ol [^>]*class="log-lines"[^>]*>.*?</ol>')
        if game.status == Game.Status.FINISHED:  # only a finished game is replayed
            replay = ana.get(f"/tables/{game.pk}/replay/?ply=1").content.decode()
            texts[f"{name} replay log"] = visible(replay, r'<ol class="log-lines[^"]*".*?</ol>')
        rows = api.get(f"/api/tables/{game.pk}/actions/?limit=200").json()["results"]
        texts[f"{name} API log"] = " ".join(row["description"] for row in rows)
        assert rows and all(row["entry"] or not row["replay"] for row in rows)  # the data travels with the words
    running.refresh_from_db()
    refused = api.post(
        f"/api/tables/{running.pk}/actions/",
        {"action": {"type": "fly"}, "expected_version": running.version},
        format="json",
    ).json()
    texts["refusal"] = refused["detail"]
    assert refused["error"] == "illegal_action" and refused["reason"] and "params" in refused
    notes = Notification.objects.filter(recipient__in=[owner, member])
    assert notes.filter(kind="bot_played").exists()
    late = notes.filter(kind="bot_played").first().recipient
    texts["notifications page"] = visible(client_for(late).get("/notifications/").content.decode(), r"<main.*?</main>")
    texts["notification texts"] = " ".join(words_in_her_language(n) for n in notes)
    texts["notifications API"] = " ".join(
        row["text"] for row in api_client_for(late).get("/api/notifications/").json()["results"]
    )
    mail.outbox.clear()
    texts["emails"] = " ".join(notification_email(n).body for n in notes.filter(kind="bot_played"))

    for where, text in texts.items():
        assert text.strip() or where == "emails", f"nothing to read in the {where}"
        assert english_in(text, english, native) == [], f"English in the {where} ({lang}): {text[:300]}"


def test_the_detector_finds_an_untranslated_line():
    """Not blind: an English log line is caught in Spanish and in Chinese, a Spanish one passes."""
    english = _english_words()
    spanish = _translated_words("es")
    assert {"closing", "ends", "without"} <= set(
        english_in("ana ends the turn without closing a ring.", english, spanish)
    )
    assert english_in("ana terminó el turno sin cerrar ningún anillo.", english, spanish) == []
    assert "ends" in english_in("ana 結束回合 ends the turn", english, _translated_words("zh_Hant"))

"""The site in Spanish and Traditional Chinese: pages, the language switcher, and complete catalogues.

The catalogue tests read config/locale/*/LC_MESSAGES/django.po with a small parser (no gettext
tools in CI) and fail on an untranslated or fuzzy entry, on a translation whose %(name)s
placeholders differ from the English, and on a committed .mo that lags behind its .po.
"""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings

from engine.bots import levels as bot_levels
from engine.core import all_games
from games.forms import asked_options
from notifications.models import Notification
from tests.games.tables import read_by_her

LOCALE_DIR = Path(settings.LOCALE_PATHS[0])
CATALOGUES = {"es": 3, "zh_Hant": 1}  # language directory -> number of plural forms
PLACEHOLDER = re.compile(r"%\((\w+)\)[-+ #0-9.]*[sdifr]")  # the names of %(name)s, %(n)d, %(medals)+d


# --- a small .po reader ---------------------------------------------------------------------


def _unquote(token: str) -> str:
    return ast.literal_eval(token)


def read_po(path: Path) -> list[dict]:
    """The entries of a .po file (header and obsolete entries left out)."""
    entries = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8").strip()):
        entry = {"flags": set(), "msgctxt": None, "msgid": None, "msgid_plural": None, "msgstr": {}}
        field = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"].update(f.strip() for f in line[2:].split(","))
            elif line.startswith("#"):
                continue
            elif match := re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")$", line):
                name, index, value = match.groups()
                field = ("msgstr", int(index or 0)) if name.startswith("msgstr") else name
                if isinstance(field, tuple):
                    entry["msgstr"][field[1]] = _unquote(value)
                else:
                    entry[field] = _unquote(value)
            elif line.startswith('"'):
                if isinstance(field, tuple):
                    entry["msgstr"][field[1]] += _unquote(line)
                else:
                    entry[field] += _unquote(line)
        if entry["msgid"]:  # the header has an empty msgid
            entries.append(entry)
    return entries


def _label(entry: dict) -> str:
    return f"{entry['msgctxt'] + ' | ' if entry['msgctxt'] else ''}{entry['msgid']!r}"


@pytest.fixture(scope="module", params=sorted(CATALOGUES))
def catalogue(request):
    po = LOCALE_DIR / request.param / "LC_MESSAGES" / "django.po"
    return request.param, read_po(po)


# --- catalogues -----------------------------------------------------------------------------


def test_the_catalogues_are_committed_with_their_compiled_files():
    for lang in CATALOGUES:
        assert (LOCALE_DIR / lang / "LC_MESSAGES" / "django.po").is_file()
        assert (LOCALE_DIR / lang / "LC_MESSAGES" / "django.mo").is_file()


def test_every_entry_is_translated_and_none_is_fuzzy(catalogue):
    lang, entries = catalogue
    assert len(entries) > 300  # the parser really read the file
    fuzzy = [_label(e) for e in entries if "fuzzy" in e["flags"]]
    assert not fuzzy, f"{lang}: fuzzy entries {fuzzy[:10]}"
    forms = CATALOGUES[lang]
    untranslated = []
    for entry in entries:
        wanted = range(forms) if entry["msgid_plural"] is not None else range(1)
        if any(not entry["msgstr"].get(i, "").strip() for i in wanted):
            untranslated.append(_label(entry))
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, e.g. {untranslated[:10]}"


def test_translations_keep_the_placeholders_of_the_english(catalogue):
    lang, entries = catalogue
    wrong = []
    for entry in entries:
        english = set(PLACEHOLDER.findall(entry["msgid"]))
        if entry["msgid_plural"] is not None:
            english |= set(PLACEHOLDER.findall(entry["msgid_plural"]))
        for text in filter(None, entry["msgstr"].values()):  # untranslated ones are reported above
            # A plural form may leave the number out ("one card"), never add or rename a placeholder.
            mine = set(PLACEHOLDER.findall(text))
            if not mine <= english or (entry["msgid_plural"] is None and mine != english):
                wrong.append((_label(entry), text))
    assert not wrong, f"{lang}: {wrong[:5]}"


def test_the_compiled_catalogues_hold_every_translation_of_the_po_files(catalogue):
    lang, entries = catalogue
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / "django.mo", "rb") as fp:
        compiled = gettext.GNUTranslations(fp)
    stale = []
    for entry in entries:
        if "fuzzy" in entry["flags"] or not all(entry["msgstr"].values()):
            continue  # msgfmt leaves these out; the test above reports them
        key = f"{entry['msgctxt']}\x04{entry['msgid']}" if entry["msgctxt"] else entry["msgid"]
        if entry["msgid_plural"] is not None:
            found = {i: compiled._catalog.get((key, i)) for i in entry["msgstr"]}
        else:
            found = {0: compiled._catalog.get(key)}
        if found != entry["msgstr"]:
            stale.append(_label(entry))
    assert not stale, f"{lang}: run `manage.py compilemessages`; {len(stale)} entries differ, e.g. {stale[:5]}"


def test_every_word_the_engines_show_is_in_the_catalogues():
    """Game names, option labels, help and values (boards/<game>/), and bot levels (games/engine_texts.py)."""
    wanted = set()
    for game in all_games().values():
        wanted.add(("game name", game.title))
        for option in asked_options(game):
            wanted.update((None, text) for text in (option["label"], option["help"]) if text)
            wanted.update(
                ("option value", value.replace("_", " ")) for value in option["choices"] if isinstance(value, str)
            )
    wanted.update((None, meta["label"]) for meta in bot_levels().values())
    for lang in CATALOGUES:
        have = {(e["msgctxt"], e["msgid"]) for e in read_po(LOCALE_DIR / lang / "LC_MESSAGES" / "django.po")}
        missing = sorted(wanted - have, key=str)
        assert not missing, f"{lang}: list these in boards/<game>/option_words.py and translate them: {missing[:10]}"


# --- pages ----------------------------------------------------------------------------------

SPANISH = {
    "lang": 'lang="es"',
    "home": "Mesas abiertas",
    "login": "¿Olvidaste tu contraseña?",
    "new": "Abrir una mesa nueva",
    "option": "Mazo de batalla",
    "nav": "Nueva mesa",
}
CHINESE = {
    "lang": 'lang="zh-hant"',
    "home": "開放中的遊戲桌",
    "login": "忘記密碼？",
    "new": "開一張新遊戲桌",
    "option": "行動牌庫",
    "nav": "開新桌",
}
LANGUAGES = [("es", "es", SPANISH), ("zh-hant", "zh-Hant-TW,zh;q=0.8", CHINESE)]


@pytest.mark.django_db
@pytest.mark.parametrize("code, header, words", LANGUAGES)
def test_home_and_login_pages_follow_the_browser_language(client, code, header, words):
    home = client.get("/", HTTP_ACCEPT_LANGUAGE=header).content.decode()
    assert words["lang"] in home and words["home"] in home and words["nav"] in home
    assert "Open tables" not in home
    login = client.get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=header).content.decode()
    assert words["lang"] in login and words["login"] in login
    assert "Forgot your password?" not in login


@pytest.mark.django_db
@pytest.mark.parametrize("code, header, words", LANGUAGES)
def test_the_language_switcher_sets_the_language_of_every_later_page(owner_client, code, header, words):
    home = owner_client.get("/").content.decode()
    assert 'action="/i18n/setlang/"' in home and f'<option value="{code}"' in home

    reply = owner_client.post("/i18n/setlang/", {"language": code, "next": "/tables/new/"})
    assert reply.status_code == 302 and reply["Location"] == "/tables/new/"

    page = owner_client.get("/tables/new/").content.decode()
    assert words["lang"] in page and words["new"] in page and words["option"] in page
    assert f'<option value="{code}" selected>' in page
    assert "Open a new table" not in page
    login_free = owner_client.get("/").content.decode()
    assert words["home"] in login_free


@pytest.mark.django_db
def test_the_create_table_page_names_topoum_in_chinese_by_the_review(owner_client):
    page = owner_client.get("/tables/new/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "鼴鼠大兵" in page  # Topoum
    assert "刺刀" in page and "迫擊砲襲擊" in page  # Bayonet, Mortar Attack: card types of a custom deck


@pytest.mark.django_db
def test_english_stays_the_default(client):
    page = client.get("/").content.decode()
    assert 'lang="en"' in page and "Open tables" in page


@pytest.mark.django_db
def test_a_translated_service_refusal_still_goes_next_to_its_field(owner_client):
    """The form places a service's message by the argument at fault, not by its English words."""
    data = {"game": "topology", "players": 2, "pace": "live", "live_seconds": 60, "days": 3}
    reply = owner_client.post("/tables/new/", data, HTTP_ACCEPT_LANGUAGE="es")
    assert reply.status_code == 400
    assert any("Topology no se juega en vivo" in e for e in reply.context["form"].errors["pace"])


@pytest.mark.django_db
def test_notifications_are_written_in_the_site_language_whoever_triggers_them(owner_client, owner, member):
    """People have no language preference yet: a Spanish visitor's invitation reaches others in English."""
    from games import services

    game = services.game_create(user=owner, kind="topology", players=2)
    reply = owner_client.post(f"/tables/{game.pk}/invite/", {"username": member.username}, HTTP_ACCEPT_LANGUAGE="es")
    assert "Invitación enviada a bruno." in reply.content.decode() or reply.status_code == 302
    note = Notification.objects.get(recipient=member)
    assert "invited you to a table of Topology" in read_by_her(note)


@pytest.mark.django_db
def test_the_waiting_room_names_bot_levels_in_the_reader_language(owner_client, owner):
    from games import services

    game = services.game_create(user=owner, kind="topology", players=3)
    page = owner_client.get(f"/tables/{game.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hant").content.decode()
    assert "由機器人補上（隨機）" in page and "強手" in page  # fill with bots (Random); the Strong level
    assert "fill with bots" not in page and "Random" not in page

"""The result explains itself (decision 24): when equal scores are told apart by a rule (Topology's ruling L7,
Topoum's ruling T20) or share the place (Toppo, ruling P2), the finished page, the API's `result` and the export
say which rule decided it: the engine gives a code (engine.core.Result.tie_break), the site words it.

Games are played to the end through the services (tests.games.tables), with seeds found once where the
site's test player (the first legal decision each time) ends on a tie.
"""

from __future__ import annotations

import copy
import html

import pytest
from django.utils import translation

from boards.registry import game_module
from engine.core import SHARED, all_games
from engine.verify import Mismatch, verify
from games.models import Game, Seat
from games.ranking import tie_words
from tests.conftest import api_client_for
from tests.games.tables import decide, open_table
from tests.web.conftest import client_for

pytestmark = pytest.mark.django_db

# (kind, options, seed, the code each seat ends with, the tied score)
TOPOLOGY_TIE = ("topology", {}, "5445bf4a52d9d8cd57d398af6d279dc1", "later_turn", 16)  # 16-16, ruling L7
TOPOUM_BARRACKS = ("topoum", {}, "dac3c1787a52cd2ced6b5c6ac08f8df5", "barracks", 21)  # ruling T20
TOPOUM_DISCARDS = ("topoum", {}, "5cd281114003566bc4e6214867faccfb", "discard_pile", 17)  # ruling T20
# Three players: the one who calls toppo scores 0, the other two 16 each, and no rule tells them apart.
TOPPO_SHARED = ("toppo", {"hands": 1}, "70c30a5641209801670d560e6cf30680", SHARED, 16)  # ruling P2
LANGUAGES = ("en", "es", "zh-hant")


def played_out(case, owner, *others) -> Game:
    kind, options, seed, _, _ = case
    game = open_table(kind, owner, *others, options=options, seed=seed)
    people = {s.index: s.user for s in game.seats.all()}
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        if not game.is_running:
            assert game.status == Game.Status.FINISHED
            return game
        decide(game, people[game.to_act[0]])
    raise AssertionError("the game did not end")


def words_in(language: str, text: str, **params) -> str:
    with translation.override(language):
        return translation.gettext(text) % params


def expected_words(language: str, case, winner: str, other: str) -> str:
    kind, _, _, code, score = case
    with translation.override(language):
        return tie_words(kind, {"seats": [0, 1], "score": score, "tie_break": code}, {0: winner, 1: other})


@pytest.fixture
def topology_tie(owner, member):
    return played_out(TOPOLOGY_TIE, owner, member)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_finished_page_says_which_rule_decided_the_tie(topology_tie, owner, member, language):
    member.language = language
    member.save()
    seats = {s.index: s for s in topology_tie.seats.select_related("user")}
    assert seats[0].score == seats[1].score == 16 and {seats[0].rank, seats[1].rank} == {1, 2}
    winner, other = sorted(seats.values(), key=lambda s: s.rank)
    page = html.unescape(client_for(member).get(f"/tables/{topology_tie.pk}/").content.decode())
    rule = words_in(language, "Ruling L7: among tied players, the one who played the later turn ranks lower.")
    tied = words_in(language, "Tied on %(score)s: %(names)s.", score="16", names="ana, bruno")
    assert f'<p class="tie-break">{tied} {rule}</p>' in page
    if language != "en":
        assert "Ruling L7" not in page and "Tied on" not in page  # worded in her language
    assert winner.user.username == "ana"  # seat 1 played the later turn (ruling L7)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_apis_result_carries_the_code_and_the_words(topology_tie, owner, language):
    owner.language = language
    owner.save()
    result = api_client_for(owner).get(f"/api/tables/{topology_tie.pk}/").json()["result"]
    words = expected_words(language, TOPOLOGY_TIE, "ana", "bruno")
    assert result["tie_breaks"] == [{"seat": 0, "tie_break": "later_turn"}, {"seat": 1, "tie_break": "later_turn"}]
    assert result["ties"] == [{"seats": [0, 1], "score": 16.0, "tie_break": "later_turn", "words": words}]
    assert result["words"] == words


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_export_carries_the_code_the_same_in_every_language(topology_tie, owner, language):
    owner.language = language
    owner.save()
    export = api_client_for(owner).get(f"/api/tables/{topology_tie.pk}/export/").json()
    assert [(r["seat"], r["tie_break"]) for r in export["result"]["ranks"]] == [(0, "later_turn"), (1, "later_turn")]


def test_the_exported_tie_break_is_what_re_running_the_log_gives(topology_tie, owner):
    # Ruling G0.2: anyone re-runs the export (python -m engine.verify) and gets the same result, tie-breaks included.
    export = api_client_for(owner).get(f"/api/tables/{topology_tie.pk}/export/").json()
    assert verify(export).startswith("verified")
    forged = copy.deepcopy(export)
    forged["result"]["ranks"][1]["tie_break"] = SHARED
    with pytest.raises(Mismatch, match="published tie-break shared, the replay gives later_turn"):
        verify(forged)


@pytest.mark.parametrize("case", [TOPOUM_BARRACKS, TOPOUM_DISCARDS, TOPPO_SHARED], ids=lambda c: f"{c[0]}-{c[3]}")
def test_each_games_own_tie_breaks_reach_the_page_the_api_and_the_export(case, owner, member, outsider):
    kind, _, _, code, score = case
    game = played_out(case, owner, member, *([outsider] if kind == "toppo" else []))
    seats = sorted(game.seats.select_related("user"), key=lambda s: (s.rank, s.index))
    tied = [s for s in seats if s.score == score]
    assert len(tied) == 2 and len(seats) - len(tied) == (1 if kind == "toppo" else 0)
    names = {s.index: s.user.username for s in seats}
    tie = {"seats": [s.index for s in tied], "score": score, "tie_break": code}
    for language in LANGUAGES:
        owner.language = language
        owner.save()
        with translation.override(language):
            words = tie_words(kind, tie, names)
        assert ", ".join(names[s.index] for s in tied) in words
        page = html.unescape(client_for(owner).get(f"/tables/{game.pk}/").content.decode())
        assert f'<p class="tie-break">{words}</p>' in page
        result = api_client_for(owner).get(f"/api/tables/{game.pk}/").json()["result"]
        assert result["ties"] == [{**tie, "words": words}]
    export = api_client_for(owner).get(f"/api/tables/{game.pk}/export/").json()
    codes = {r["seat"]: r["tie_break"] for r in export["result"]["ranks"]}
    assert codes == {s.index: (code if s in tied else None) for s in seats}
    if code == SHARED:
        assert tied[0].rank == tied[1].rank == 2  # they share the place (ruling P2)


def test_a_game_finished_before_results_named_their_tie_break_is_explained_from_its_final_state(topology_tie, owner):
    for seat in Seat.objects.filter(game=topology_tie):
        seat.result = {k: v for k, v in seat.result.items() if k != "tie_break"}
        seat.save(update_fields=["result"])
    result = api_client_for(owner).get(f"/api/tables/{topology_tie.pk}/").json()["result"]
    assert [t["tie_break"] for t in result["ties"]] == ["later_turn"]


def test_a_seat_that_left_is_placed_by_leaving_not_by_a_tie_break(topology_tie, owner):
    # Ruling S1: a seat that left ranks after those still playing, whatever its score; no rule broke a tie then.
    Seat.objects.filter(game=topology_tie, index=0).update(abandoned=True, rank=2)
    Seat.objects.filter(game=topology_tie, index=1).update(rank=1)
    data = api_client_for(owner).get(f"/api/tables/{topology_tie.pk}/").json()
    assert data["result"]["ties"] == [] and data["result"]["words"] == ""
    assert {t["tie_break"] for t in data["result"]["tie_breaks"]} == {None}


def test_a_game_without_a_tie_says_nothing_of_one(owner, member):
    game = played_out(("topology", {}, "5f4e3d7f49d9231147133b229e94689d", None, None), owner, member)  # 24 to 12
    assert sorted(s.score for s in game.seats.all()) == [12, 24]
    result = api_client_for(owner).get(f"/api/tables/{game.pk}/").json()["result"]
    assert result["ties"] == [] and {t["tie_break"] for t in result["tie_breaks"]} == {None}
    assert 'class="tie-break"' not in client_for(owner).get(f"/tables/{game.pk}/").content.decode()


@pytest.mark.parametrize("name", sorted(all_games()))
def test_every_tie_break_a_game_declares_is_worded_in_every_language(name):
    words = game_module(name, "words")
    for code in all_games()[name].tie_breaks:
        english = words.tie_break_words(code)
        assert english
        for language in ("es", "zh-hant"):
            with translation.override(language):
                assert words.tie_break_words(code) not in ("", None, english)

"""Verifiable games (ruling G0.2): the commitment to the seed is public from the start, a finished game exports
its seed, whole log and published result, and `python -m engine.verify` re-runs it in a separate process, the
site out of the picture, and catches any change to the log, the seed, the commitment or the ranks.

Real games of each kind, played to the end through the services by the engine's own legal actions.
"""

from __future__ import annotations

import copy
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import services
from games.models import Game
from tests.games.tables import decide, everyone_played, open_table, topology_table

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def play_to_the_end(game: Game, *users) -> Game:
    """Each seat to decide makes its decision (the first legal one, tests.games.tables.pick)."""
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        if not game.is_running:
            return game
        decide(game, by_seat[game.to_act[0]])
    raise AssertionError("the game did not end")


def run_verify(tmp_path, export: dict) -> subprocess.CompletedProcess:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    return subprocess.run(
        [sys.executable, "-m", "engine.verify", str(path)], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def finished(kind: str, owner, member, **options) -> Game:
    game = open_table(kind, owner, member, options=options)
    return play_to_the_end(game, owner, member)


@pytest.fixture
def export_of(owner_api):
    def export(game: Game) -> dict:
        answer = owner_api.get(f"/api/tables/{game.pk}/export/")
        assert answer.status_code == 200, answer.data
        return answer.json()

    return export


@pytest.mark.parametrize("kind, options", [("topology", {}), ("toppo", {"hands": 1}), ("topoum", {})])
def test_a_finished_game_of_each_kind_verifies_and_every_tampering_is_caught(
    kind, options, owner, member, tmp_path, export_of
):
    game = finished(kind, owner, member, **options)
    assert game.status == Game.Status.FINISHED
    export = export_of(game)
    assert export["game"] == kind and export["players"] == 2 and export["seed"] == game.seed
    assert [s["name"] for s in export["seats"]] == [owner.username, member.username]
    assert [r["seq"] for r in export["log"]] == list(range(1, game.version + 1))
    assert {r["source"] for r in export["log"]} == {"player"}

    good = run_verify(tmp_path, export)
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.startswith("verified")

    # One log action changed: the engine refuses it, or the game comes out otherwise.
    changed = copy.deepcopy(export)
    changed["log"][0]["action"] = {**changed["log"][0]["action"], "type": "no-such-action"}
    assert_caught(tmp_path, changed, "does not replay")
    # Another seed: it no longer fits the commitment.
    assert_caught(tmp_path, {**export, "seed": "0" * 32}, "commitment")
    # Another commitment, one that is honest about the other seed: the replay gives another game.
    other_seed = "1" * 32
    forged = {
        **export,
        "seed": other_seed,
        "seed_commitment": hashlib.sha256((export["seed_salt"] + other_seed).encode()).hexdigest(),
    }
    assert_caught(tmp_path, forged, "")
    assert_caught(tmp_path, {**export, "seed_commitment": "f" * 64}, "commitment")
    # A published rank changed.
    ranked = copy.deepcopy(export)
    ranked["result"]["ranks"][0]["rank"] = 3 - ranked["result"]["ranks"][0]["rank"] if kind != "toppo" else 99
    assert_caught(tmp_path, ranked, "published rank")


def assert_caught(tmp_path, export: dict, words: str) -> None:
    answer = run_verify(tmp_path, export)
    assert answer.returncode == 1, answer.stdout + answer.stderr
    assert answer.stdout.startswith("MISMATCH") and words in answer.stdout, answer.stdout


def test_a_resignation_is_in_the_export_as_a_site_entry_and_verifies(owner, member, tmp_path, export_of):
    game = topology_table(owner, member)
    game = decide(game, owner)
    game = everyone_played(game)  # ruling S1, turn 3: before that, leaving aborts the game
    services.game_resign(game_id=game.pk, user=member)  # two players: the game ends at once (ruling S1)
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    export = export_of(game)
    leave = export["log"][-1]
    assert leave == {"seq": game.version, "seat": 1, "source": "player", "replay": False, "action": {"type": "resign"}}
    assert export["result"] == {
        "ranks": [
            {"seat": 0, "rank": 1, "score": None, "tie_break": None},
            {"seat": 1, "rank": 2, "score": None, "tie_break": None},
        ],
        "winners": [0],
    }
    assert run_verify(tmp_path, export).returncode == 0

    # Dropping the leave entry leaves an unfinished game; naming the other seat as leaver changes the ranks.
    assert_caught(tmp_path, {**export, "log": export["log"][:-1]}, "does not finish")
    swapped = copy.deepcopy(export)
    swapped["log"][-1]["seat"] = 0
    assert_caught(tmp_path, swapped, "published rank")


def test_the_commitment_is_public_from_the_start_and_the_seed_only_at_the_end(owner, member, owner_api, member_api):
    game = topology_table(owner, member)
    assert len(game.seed_salt) == 32 and game.seed_salt != game.seed
    assert game.seed_commitment == hashlib.sha256((game.seed_salt + game.seed).encode()).hexdigest()
    detail = member_api.get(f"/api/tables/{game.pk}/").data
    assert detail["seed_commitment"] == game.seed_commitment and detail["seed_salt"] == game.seed_salt
    assert "seed" not in detail
    page_log = member_api.get(f"/tables/{game.pk}/log.json").json()
    assert page_log["seed_commitment"] == game.seed_commitment and "seed" not in page_log
    page = member_api.get(f"/tables/{game.pk}/").content.decode()
    assert game.seed_commitment in page and game.seed not in page

    running = owner_api.get(f"/api/tables/{game.pk}/export/")
    assert running.status_code == 409 and "finished" in running.data["detail"]
    spanish = owner_api.get(f"/api/tables/{game.pk}/export/", HTTP_ACCEPT_LANGUAGE="es")
    assert spanish.status_code == 409 and "terminada" in spanish.data["detail"]
    assert owner_api.get("/api/tables/999999/export/").status_code == 404


def test_the_pages_log_export_of_a_finished_game_verifies_too(owner, member, tmp_path, client):
    game = finished("topology", owner, member)
    export = client.get(f"/tables/{game.pk}/log.json").json()
    assert all(row["description"] for row in export["log"])  # the page's lines stay
    assert run_verify(tmp_path, export).returncode == 0

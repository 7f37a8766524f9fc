"""The medal breakdown of a table's detail keeps the fold of its settled lines (decision 28) and is still what the
whole log gives, for every reader, at every decision: a Topoum game played through the move service with random
legal decisions, undo among them (a decision taken back is left out, ruling S3), checked against the breakdown
of the log read whole (boards.topoum.breakdown.medal_breakdown) for each seat and a spectator.  A kept fold that
belongs to another game under the same id (a database made again) is not used.  A move's answer folds the line
it just wrote onto the mover's lines kept at the version before, reading nothing, when the move changed no other
line (a decision of her turn still unconfirmed) or made her own turn's lines public (her confirmation), and reads
them after an undo."""

from __future__ import annotations

import copy
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from boards.topoum.breakdown import fold, fold_copy, fold_start, medal_breakdown
from games import services
from games.models import Action, Game
from games.selectors import tables
from games.selectors.positions import load_state
from games.selectors.tables import action_log_rows, score_breakdown

pytestmark = pytest.mark.django_db

DECISIONS = 70


def _whole_log(game: Game, user, view) -> dict:
    rows = (
        action_log_rows(game, user)
        .exclude(visibility=Action.Visibility.WITHDRAWN)
        .order_by("seq")
        .values_list("seat", "entry")
    )
    return medal_breakdown(list(rows), game.players, view.get("final"))


def _orm_lines(game: Game, user, after: int) -> list[tuple]:
    """What the breakdown's own statement must read: action_log_rows' lines, withdrawn ones left out (ruling S3)."""
    rows = action_log_rows(game, user, after=after).exclude(visibility=Action.Visibility.WITHDRAWN).order_by("seq")
    return list(rows.values_list("seq", "visibility", "seat", "entry"))


def _kept(game: Game) -> dict | None:
    return tables._kept_breakdowns.get((game.pk, game.seed_commitment))


def test_the_kept_fold_gives_the_whole_logs_breakdown_to_every_reader(owner, member, outsider):
    game = services.game_create(user=owner, kind="topoum", players=2)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    users = {s.index: s.user for s in game.seats.all()}
    rng = random.Random("breakdown")
    undone = kept_at = 0
    for _ in range(DECISIONS):
        if not game.is_running:
            break
        state = load_state(game)
        seat = game.to_act[0]
        legal = state.legal_actions(seat)
        undo = [a for a in legal if a["type"] == "undo"]
        action = undo[0] if undo and rng.random() < 0.15 else rng.choice([a for a in legal if a["type"] != "undo"])
        undone += bool(action["type"] == "undo")
        services.action_submit(game_id=game.pk, user=users[seat], action=action, expected_version=game.version)
        game = Game.objects.get(pk=game.pk)
        state = load_state(game)
        for reader in (owner, member, outsider, None):
            index = next((i for i, u in users.items() if u == reader), None)
            view = state.view(index)
            assert score_breakdown(game, reader, view) == _whole_log(game, reader, view), (game.version, index)
            for after in (0, game.turn_version):
                assert tables._breakdown_lines(game, reader, after=after) == _orm_lines(game, reader, after)
        over = copy.copy(game)  # once over every line but the withdrawn ones is read, whoever reads (ruling S3)
        for status in (Game.Status.FINISHED, Game.Status.ABORTED):
            over.status = status
            for reader in (owner, outsider, None):
                assert tables._breakdown_lines(over, reader, after=0) == _orm_lines(over, reader, 0)
        kept = _kept(game)
        if kept is not None:
            assert kept["upto"] <= game.turn_version
            kept_at = max(kept_at, kept["upto"])
    assert undone and kept_at > 0  # decisions were taken back, and settled lines were kept and used


def test_a_moves_answer_folds_its_own_line_onto_the_movers_kept_lines(owner, member):
    game = services.game_create(user=owner, kind="topoum", players=2)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    users = {s.index: s.user for s in game.seats.all()}
    rng = random.Random("answer")
    read_nothing = read_again = decisions = 0
    for _ in range(DECISIONS):
        if not game.is_running:
            break
        seat = game.to_act[0]
        legal = load_state(game).legal_actions(seat)
        undo = [a for a in legal if a["type"] == "undo"]
        action = undo[0] if undo and rng.random() < 0.15 else rng.choice([a for a in legal if a["type"] != "undo"])
        result = services.action_submit(game_id=game.pk, user=users[seat], action=action, expected_version=game.version)
        view = result.state.view(seat)
        written = result.written
        # Topoum (ruling S3): known but for an undo, which withdraws a line
        assert (written is None) == (result.action.visibility == Action.Visibility.WITHDRAWN)
        with CaptureQueriesContext(connection) as queries:
            answered = score_breakdown(result.game, users[seat], view, written=written)
        decisions += result.game.is_running  # the last line of a game is read with all the others (ruling S3)
        read_nothing += not queries.captured_queries
        read_again += written is None and bool(queries.captured_queries)
        game = Game.objects.get(pk=game.pk)
        assert answered == _whole_log(game, users[seat], view), (game.version, action)
    # Decisions of a turn and its confirmation are answered from the kept lines (but the first, before any was
    # kept); each undo reads them.
    assert read_again > 0 and read_nothing == decisions - read_again - 1


def test_kept_lines_are_not_another_readers_nor_of_another_version(owner, member):
    game = services.game_create(user=owner, kind="topoum", players=2)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    users = {s.index: s.user for s in game.seats.all()}
    seat = game.to_act[0]
    action = next(a for a in load_state(game).legal_actions(seat) if a["type"] != "undo")
    services.action_submit(game_id=game.pk, user=users[seat], action=action, expected_version=game.version)
    game = Game.objects.prefetch_related("seats").get(pk=game.pk)  # who sits where, read before
    view = load_state(game).view(seat)
    expected = _whole_log(game, users[seat], view)
    score_breakdown(game, users[seat], view)  # her lines at this version are kept
    with CaptureQueriesContext(connection) as queries:
        assert score_breakdown(game, users[seat], view) == expected
    assert not queries.captured_queries  # the same reader at the same version: nothing read
    other = 1 - seat
    other_view = load_state(game).view(other)
    expected = _whole_log(game, users[other], other_view)
    with CaptureQueriesContext(connection) as queries:
        assert score_breakdown(game, users[other], other_view) == expected
    assert queries.captured_queries  # another reader's lines are read (hers are private, ruling S3)
    behind = copy.copy(game)
    behind.version -= 1  # read before the last move committed, its lines after: that line is not kept as of then
    score_breakdown(behind, users[seat], view)
    reader, version, lines = _kept(game)["tail"]
    assert (reader, version) == (seat, behind.version) and all(line[0] <= behind.version for line in lines)
    moved_on = copy.copy(game)
    moved_on.version += 1  # a write since (another process): the kept lines are not used
    with CaptureQueriesContext(connection) as queries:
        score_breakdown(moved_on, users[seat], view, written=None)
    assert queries.captured_queries


def test_a_fold_kept_for_another_game_under_the_same_id_is_not_used(owner, member):
    game = services.game_create(user=owner, kind="topoum", players=2)
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    wrong = fold_start(2)
    wrong["overall"][0]["press"] = 99  # what a game of a deleted database might have left
    tables._keep_breakdown((game.pk, "another-game"), {"upto": 0, "acc": wrong})
    view = load_state(game).view(0)
    assert score_breakdown(game, owner, view) == _whole_log(game, owner, view)
    assert score_breakdown(game, owner, view)["seats"][0]["overall"]["press"] == 0


def test_a_copy_of_a_fold_is_folded_into_without_changing_the_fold():
    acc = fold_start(2)
    lines = [(0, [{"code": "topoum.lines_scored", "medals": 2}]), (0, [{"code": "topoum.end_turn"}])]
    fold(acc, lines)
    before = copy.deepcopy(acc)
    folded = fold(fold_copy(acc), [(1, [{"code": "topoum.medal_of_honor"}]), *lines])
    assert acc == before
    assert folded == fold(copy.deepcopy(acc), [(1, [{"code": "topoum.medal_of_honor"}]), *lines])
    assert folded != acc

"""After-effects of writes (games.services.effects): one dispatch task waits per game however many changes come,
and once its mark is cleared the next change sends another; a private decision sends none.  Read back from the
broker's own files."""

import pytest

from games.models import GameEffects
from games.services import effects, effects_mark
from tests.games.factories import started_topology

pytestmark = pytest.mark.django_db


def dispatches(sent) -> list:
    return [args for name, args, _ in sent() if name.endswith("game_effects")]


def test_changes_while_a_dispatch_waits_send_no_second_task(owner, member, sent_tasks):
    game = started_topology(owner, member)  # (its own on-commit effects never run inside the test's transaction)
    effects.game_changed(game.pk)
    effects.game_changed(game.pk)
    effects.after_action(game.pk, game.version)
    assert dispatches(sent_tasks) == [(game.pk,)]
    assert GameEffects.objects.get(game=game).queued_at is not None
    effects_mark.mark_cleared(game.pk)  # as the dispatch does in its transaction, or the task when it fails
    effects.after_finish(game.pk)
    assert dispatches(sent_tasks) == [(game.pk,), (game.pk,)]


def test_a_private_decision_sends_no_dispatch_and_writes_no_mark(owner, member, sent_tasks):
    game = started_topology(owner, member)
    effects.after_private_decision(game.pk, seq=3, latest=3, bot_played=False)
    assert sent_tasks() == []
    assert not GameEffects.objects.filter(game=game).exists()


def test_a_bot_playing_the_seat_is_asked_for_its_next_private_decision_once_per_commit(owner, member, sent_tasks):
    game = started_topology(owner, member)
    effects.after_private_decision(game.pk, seq=2, latest=3, bot_played=True)  # not the last of its transaction
    assert sent_tasks() == []
    effects.after_private_decision(game.pk, seq=3, latest=3, bot_played=True)
    assert [(name, args) for name, args, _ in sent_tasks()] == [("games.tasks.bots_schedule", (game.pk,))]
    assert not GameEffects.objects.filter(game=game).exists()

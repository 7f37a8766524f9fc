"""Decision 29, point 2: her forced decisions played for her, by her option, in the worker (games.services.auto_play).

Topoum's first decision is forced (the first farmer goes on the centre hex, ruling P-setup): exactly one legal
decision and nothing to take back.  Topology's first decision is a choice among many.
"""

from __future__ import annotations

import pytest

from games import tasks
from games.models import Action, Game
from games.selectors.turn_labels import FORCED, turn_label
from games.services.auto_play import forced_decision_play
from tests.games.tables import topology_table, topoum_table

pytestmark = pytest.mark.django_db


def _auto(user, on=True):
    user.auto_play_forced = on
    user.save(update_fields=["auto_play_forced"])


def test_a_forced_decision_is_played_for_her_in_the_worker_logged_as_hers_with_source_auto(owner, member, celery_eager):
    _auto(owner)
    game = topoum_table(owner, member)
    assert game.to_act == [0] and turn_label(game, 0)["label"] == FORCED
    tasks.game_effects.run(game.pk)  # the dispatch of the deal, as the worker runs it
    row = Action.objects.get(game=game, seq=1)
    assert (row.seat, row.source, row.user_id) == (0, "auto", owner.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.version == 1
    # What follows is hers to choose (or to take back): the next dispatch plays nothing more.
    assert turn_label(game, 0)["label"] != FORCED
    tasks.game_effects.run(game.pk)
    assert Game.objects.get(pk=game.pk).version == 1


def test_nothing_is_played_without_her_option_or_where_she_has_a_choice(owner, member, celery_eager):
    game = topoum_table(owner, member)
    tasks.game_effects.run(game.pk)
    assert not Action.objects.filter(game=game).exists()  # the option is off: hers to play
    assert forced_decision_play(game_id=game.pk, seat=0, version=game.version) is None

    _auto(owner)
    table = topology_table(owner, member)
    assert turn_label(table, 0)["label"] != FORCED
    tasks.game_effects.run(table.pk)
    assert forced_decision_play(game_id=table.pk, seat=0, version=table.version) is None
    assert not Action.objects.filter(game=table).exists()


def test_a_stale_task_does_nothing(owner, member):
    _auto(owner)
    game = topoum_table(owner, member)
    assert forced_decision_play(game_id=game.pk, seat=0, version=game.version + 1) is None  # the game moved on
    assert forced_decision_play(game_id=game.pk, seat=1, version=game.version) is None  # not that seat's decision
    _auto(owner, on=False)
    assert forced_decision_play(game_id=game.pk, seat=0, version=game.version) is None  # she turned it off
    _auto(owner)
    logged = forced_decision_play(game_id=game.pk, seat=0, version=game.version)
    assert logged is not None and logged.source == "auto"
    assert forced_decision_play(game_id=game.pk, seat=0, version=game.version) is None  # played once only


def test_she_turns_it_on_and_off_from_the_profile_and_the_api(owner, owner_api):
    from django.test import Client

    assert owner_api.get("/api/me/").json()["auto_play_forced"] is False
    answer = owner_api.patch("/api/me/", {"auto_play_forced": True}, format="json")
    assert answer.status_code == 200 and answer.json()["auto_play_forced"] is True
    for wrong in ("maybe", 0, "true"):
        assert owner_api.patch("/api/me/", {"auto_play_forced": wrong}, format="json").status_code == 400
    owner.refresh_from_db()
    assert owner.auto_play_forced
    page = Client()
    page.force_login(owner)
    assert 'name="auto_play_forced"' in page.get("/accounts/profile/").content.decode()
    assert page.post("/accounts/profile/auto-play/", {}).status_code == 302  # the box unticked
    owner.refresh_from_db()
    assert not owner.auto_play_forced
    page.post("/accounts/profile/auto-play/", {"auto_play_forced": "1"})
    owner.refresh_from_db()
    assert owner.auto_play_forced

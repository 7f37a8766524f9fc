"""games.hooks: how games makes a later app act without importing it (the app order, docs/architecture.md): every
hook games calls is answered once the apps are ready, each receiver connected once however often ready() runs."""

from __future__ import annotations

import pytest
from django.apps import apps

from feed import hooks as feed_hooks
from games import hooks
from games.hooks import Hook


def _hooks(module) -> dict[str, Hook]:
    return {name: value for name, value in vars(module).items() if isinstance(value, Hook)}


def test_every_hook_games_calls_is_answered_once():
    found = _hooks(hooks)
    assert len(found) >= 24
    for name, hook in found.items():
        assert len(hook.receivers) >= 1, f"nobody answers games.hooks.{name}"
    assert len(hooks.effects_dispatch.receivers) == 1  # one dispatch tells each turn once
    assert len(hooks.game_finished.receivers) == 1  # ratings rates a finished game once (ruling S5)
    assert feed_hooks.table_stream_parts.receivers  # the chat's stamp in a table's stream


def test_ready_twice_connects_nothing_twice():
    before = {name: list(hook.receivers) for name, hook in _hooks(hooks).items()}
    for app in ("ratings", "feed", "notifications", "chat"):
        apps.get_app_config(app).ready()
    assert {name: list(hook.receivers) for name, hook in _hooks(hooks).items()} == before


def test_a_hook_calls_its_receivers_in_order_with_the_same_data():
    hook, heard = Hook("test"), []
    first = hook.connect(lambda game_id, user_ids: heard.append(("a", game_id, user_ids)) or 1)
    hook.connect(lambda game_id, user_ids: heard.append(("b", game_id, user_ids)) or 2)
    hook.connect(first)  # connected again: nothing changes
    assert hook(7, [1]) == [1, 2]
    assert heard == [("a", 7, [1]), ("b", 7, [1])]


def test_a_hook_nobody_fills_answers_nothing_and_a_misspelt_one_fails_at_once():
    hook = Hook("empty")
    assert hook(game=None) == [] and hook.merged(game=None) == {} and hook.joined(kind="x") == []
    with pytest.raises(AttributeError):
        hooks.game_finsihed.connect(print)


def test_merged_and_joined_put_the_answers_together():
    badges, strengths = Hook("badges"), Hook("strengths")
    badges.connect(lambda *, game: {"rating": {0: 1500}})
    badges.connect(lambda *, game: {"title": {0: "GM"}})
    strengths.connect(lambda *, kind: [kind])
    strengths.connect(lambda *, kind: None)
    assert badges.merged(game=None) == {"rating": {0: 1500}, "title": {0: "GM"}}
    assert strengths.joined(kind="toppo") == ["toppo"]

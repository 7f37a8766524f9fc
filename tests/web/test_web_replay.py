"""The replay page of a finished game: each kind drawn with its own board, step links, the current log line."""

from __future__ import annotations

import pytest

from games import services
from games.models import Game
from games.selectors import replay
from tests.games.test_replay import play

pytestmark = pytest.mark.django_db


def finished(owner, member, kind: str, **options) -> Game:
    game = services.game_create(user=owner, kind=kind, players=2, options=options)
    services.game_join(user=member, game_id=game.pk)
    return play(services.game_start(user=owner, game_id=game.pk))


@pytest.mark.parametrize("kind,options", [("topology", {}), ("topoum", {}), ("toppo", {"hands": 1})])
def test_every_kind_replays_with_its_own_board(owner, member, client, kind, options):
    game = finished(owner, member, kind, **options)
    assert game.status == Game.Status.FINISHED
    plies = replay.plies_of(game)
    table = client.get(f"/tables/{game.pk}/")
    assert f"/tables/{game.pk}/replay/" in table.content.decode()
    for ply in (0, plies // 2, plies):
        page = client.get(f"/tables/{game.pk}/replay/?ply={ply}")
        html = page.content.decode()
        assert page.status_code == 200
        assert f'data-ply="{ply}"' in html and f'data-plies="{plies}"' in html
        assert f"game-{kind}" in html and "js/replay.js" in html and "<script>" not in html
        assert (ply > 0) == ('aria-current="step"' in html)  # the log line of the step is marked


def test_out_of_range_and_unreadable_plies_are_kept_within_the_game(owner, member, client):
    game = finished(owner, member, "toppo", hands=1)
    plies = replay.plies_of(game)
    assert f'data-ply="{plies}"' in client.get(f"/tables/{game.pk}/replay/?ply=99999").content.decode()
    assert 'data-ply="0"' in client.get(f"/tables/{game.pk}/replay/?ply=-4").content.decode()
    assert f'data-ply="{plies}"' in client.get(f"/tables/{game.pk}/replay/?ply=x").content.decode()


def test_a_running_game_has_no_replay_page(owner, member, client):
    game = services.game_create(user=owner, kind="toppo", players=2, options={"hands": 1})
    services.game_join(user=member, game_id=game.pk)
    game = services.game_start(user=owner, game_id=game.pk)
    response = client.get(f"/tables/{game.pk}/replay/")
    assert response.status_code == 404
    assert f"/tables/{game.pk}/replay/" not in client.get(f"/tables/{game.pk}/").content.decode()


@pytest.mark.parametrize("kind,options", [("topology", {}), ("topoum", {}), ("toppo", {"hands": 1})])
def test_a_step_answers_only_the_board_and_the_log_row_it_marks(owner, member, client, kind, options):
    # Decision 26: static/js/replay.js swaps this fragment in instead of loading the whole page.
    game = finished(owner, member, kind, **options)
    plies = replay.plies_of(game)
    for ply in (0, 1, plies // 2, plies):
        html = client.get(f"/tables/{game.pk}/replay/?ply={ply}&part=step").content.decode()
        seq = replay.position_at(game, ply).seq
        assert html.count('id="replay-step"') == 1 and f'data-ply="{ply}"' in html and f'data-seq="{seq}"' in html
        assert f'data-label="Move {ply} of {plies}"' in html and f"{kind}" in html
        assert "<html" not in html and "replay-log" not in html and "replay-controls" not in html
        page = client.get(f"/tables/{game.pk}/replay/?ply={ply}").content.decode()
        assert f'<li data-seq="{seq}" class="current" aria-current="step">' in page or ply == 0

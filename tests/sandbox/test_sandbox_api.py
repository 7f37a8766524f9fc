"""Decision 29, point 1: sandboxes through the API: fork from my own seat, play every seat, take back, branch, bots
in the worker, privacy (404 for others), limits (400/403/404/409/429), expiry; the real game is never touched."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from games.selectors import replay
from sandbox.models import Sandbox
from sandbox.services import sandbox_bot_answer, sandboxes_expire
from sandbox.tasks import sandboxes_expire as sandboxes_expire_task
from tests.conftest import api_client_for
from tests.games.factories import open_topology, started_topology, table_snapshot
from tests.games.test_replay import play

pytestmark = pytest.mark.django_db


def fork(api, game, **body):
    return api.post(f"/api/tables/{game.pk}/sandboxes/", body, format="json")


def first_move(answer):
    seat = answer["to_act"][0]
    return seat, answer["legal_actions"][0] if answer["shown_seat"] == seat else None


def test_a_player_forks_her_seat_plays_every_seat_takes_back_and_branches(game, owner_api):
    before = table_snapshot(game)
    reply = fork(owner_api, game)
    assert reply.status_code == 201, reply.data
    box = reply.data
    assert box["table"] == game.pk and box["seat"] == 0 and box["ply"] == 0 and box["current"] == 0
    assert box["nodes"][0]["by"] == "start" and box["path"] == [0]
    sid = box["id"]
    played = []
    answer = box
    for _ in range(3):  # whoever is to decide: she plays them all
        seat = answer["to_act"][0]
        answer = owner_api.get(f"/api/sandboxes/{sid}/?seat={seat}").data
        assert answer["shown_seat"] == seat and answer["legal_actions"]
        action = answer["legal_actions"][0]
        reply = owner_api.post(f"/api/sandboxes/{sid}/moves/", {"seat": seat, "action": action}, format="json")
        assert reply.status_code == 200, reply.data
        answer = reply.data
        played.append(answer["current"])
    assert answer["path"] == [0, *played] and len(answer["scores"]) == 2
    assert all(n["words"] for n in answer["nodes"][1:])
    # take back one move: the line stays in the tree
    reply = owner_api.post(f"/api/sandboxes/{sid}/undo/")
    assert reply.status_code == 200 and reply.data["current"] == played[1] and len(reply.data["nodes"]) == 4
    # back to the fork and play another first move: a second line beside the first
    reply = owner_api.post(f"/api/sandboxes/{sid}/goto/", {"node": 0}, format="json")
    assert reply.data["current"] == 0
    seat = reply.data["to_act"][0]
    legal = owner_api.get(f"/api/sandboxes/{sid}/?seat={seat}").data["legal_actions"]
    reply = owner_api.post(f"/api/sandboxes/{sid}/moves/", {"seat": seat, "action": legal[-1]}, format="json")
    assert reply.status_code == 200
    roots = [n for n in reply.data["nodes"] if n["parent"] == 0]
    assert len(roots) == 2 and reply.data["current"] == roots[1]["id"]
    # the same move again from the fork goes to the node that holds it
    owner_api.post(f"/api/sandboxes/{sid}/goto/", {"node": 0}, format="json")
    reply = owner_api.post(f"/api/sandboxes/{sid}/moves/", {"seat": seat, "action": legal[-1]}, format="json")
    assert reply.data["current"] == roots[1]["id"] and len(reply.data["nodes"]) == 5
    # going to a deep point replays it exactly
    reply = owner_api.post(f"/api/sandboxes/{sid}/goto/", {"node": played[2]}, format="json")
    assert reply.data["path"] == [0, *played]
    assert table_snapshot(game) == before  # the real game never moved
    listed = owner_api.get(f"/api/tables/{game.pk}/sandboxes/").data
    assert [s["id"] for s in listed] == [sid]


def test_refusals_are_clear_and_change_nothing(game, owner_api, member_api, outsider_api):
    sid = fork(owner_api, game).data["id"]
    # others: 404, as if it did not exist
    for api in (member_api, outsider_api):
        assert api.get(f"/api/sandboxes/{sid}/").status_code == 404
        assert api.post(f"/api/sandboxes/{sid}/undo/").status_code == 404
        assert api.delete(f"/api/sandboxes/{sid}/").status_code == 404
        assert api.get(f"/api/tables/{game.pk}/sandboxes/").data == []
    # a spectator may not fork a running game; a player may not take another seat's view while it runs
    assert fork(outsider_api, game).status_code == 403
    assert fork(owner_api, game, seat=1).status_code == 403
    assert fork(owner_api, game, ply=99).status_code == 404
    box = owner_api.get(f"/api/sandboxes/{sid}/").data
    nodes = Sandbox.objects.get(pk=sid).nodes
    seat = box["to_act"][0]
    other = 1 - seat
    reply = owner_api.post(
        f"/api/sandboxes/{sid}/moves/", {"seat": seat, "action": {"type": "nonsense"}}, format="json"
    )
    assert reply.status_code == 400 and reply.data["error"] == "illegal_action"
    reply = owner_api.post(f"/api/sandboxes/{sid}/moves/", {"seat": seat, "action": "x"}, format="json")
    assert reply.status_code == 400
    legal = owner_api.get(f"/api/sandboxes/{sid}/?seat={seat}").data["legal_actions"]
    reply = owner_api.post(f"/api/sandboxes/{sid}/moves/", {"seat": other, "action": legal[0]}, format="json")
    assert reply.status_code == 400  # not that seat's decision
    assert owner_api.post(f"/api/sandboxes/{sid}/undo/").status_code == 409  # at the fork
    assert owner_api.post(f"/api/sandboxes/{sid}/goto/", {"node": 5}, format="json").status_code == 404
    reply = owner_api.post(f"/api/sandboxes/{sid}/bot/", {"seat": other, "level": "greedy"}, format="json")
    assert reply.status_code == 409
    reply = owner_api.post(f"/api/sandboxes/{sid}/bot/", {"seat": seat, "level": "genius"}, format="json")
    assert reply.status_code == 400
    assert Sandbox.objects.get(pk=sid).nodes == nodes


def test_a_finished_public_game_forks_from_any_seat_and_any_ply(owner, member, outsider_api):
    game = play(started_topology(owner, member))
    assert game.status == Game.Status.FINISHED
    plies = replay.plies_of(game)
    reply = fork(outsider_api, game, seat=1, ply=plies // 2)
    assert reply.status_code == 201, reply.data
    assert reply.data["seat"] == 1 and reply.data["ply"] == plies // 2 and not reply.data["over"]
    assert fork(outsider_api, game, seat=2).status_code == 400  # a two-seat table
    end = fork(outsider_api, game)
    assert end.status_code == 201 and end.data["over"] and end.data["places"]
    assert outsider_api.post(f"/api/sandboxes/{end.data['id']}/bot/", {"seat": 0}, format="json").status_code == 409


def test_an_open_table_cannot_be_forked(owner, owner_api):
    game = open_topology(owner)
    assert fork(owner_api, game).status_code == 409


def test_limits_per_person_and_per_sandbox(game, owner_api, settings):
    settings.TOPOS_SANDBOXES_PER_PERSON = 2
    settings.TOPOS_SANDBOX_MAX_MOVES = 1
    first = fork(owner_api, game).data["id"]
    assert fork(owner_api, game).status_code == 201
    reply = fork(owner_api, game)
    assert reply.status_code == 409 and "2" in reply.data["detail"]
    box = owner_api.get(f"/api/sandboxes/{first}/").data
    seat = box["to_act"][0]
    legal = owner_api.get(f"/api/sandboxes/{first}/?seat={seat}").data["legal_actions"]
    assert (
        owner_api.post(f"/api/sandboxes/{first}/moves/", {"seat": seat, "action": legal[0]}, format="json").status_code
        == 200
    )
    owner_api.post(f"/api/sandboxes/{first}/undo/")
    reply = owner_api.post(f"/api/sandboxes/{first}/moves/", {"seat": seat, "action": legal[1]}, format="json")
    assert reply.status_code == 409
    assert owner_api.delete(f"/api/sandboxes/{first}/").status_code == 204
    assert fork(owner_api, game).status_code == 201


def test_sandbox_writes_are_throttled(game, owner_api, settings):
    settings.TOPOS_SANDBOX_RATE = "2/min"
    from django.core.cache import cache

    cache.clear()
    codes = [fork(owner_api, game).status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    sid = Sandbox.objects.first().pk
    assert owner_api.get(f"/api/sandboxes/{sid}/").status_code == 200  # reads are not counted here
    reply = owner_api.post(f"/api/sandboxes/{sid}/undo/")
    assert reply.status_code == 429 and int(reply["Retry-After"]) >= 1


def test_a_bot_answer_is_asked_for_in_the_request_and_played_by_the_task(
    game, owner_api, sent_tasks, django_capture_on_commit_callbacks
):
    sid = fork(owner_api, game).data["id"]
    box = owner_api.get(f"/api/sandboxes/{sid}/").data
    seat = box["to_act"][0]
    with django_capture_on_commit_callbacks(execute=True):
        reply = owner_api.post(f"/api/sandboxes/{sid}/bot/", {"seat": seat, "level": "greedy"}, format="json")
    assert reply.status_code == 202 and reply.data["bot"] == {"seat": seat, "level": "greedy"}
    assert reply.data["current"] == 0  # nothing played inside the request
    tasks = [t for t in sent_tasks() if t[0] == "sandbox.tasks.sandbox_bot_answer"]
    assert len(tasks) == 1 and tasks[0][1][0] == sid
    assert sandbox_bot_answer(*tasks[0][1]) is True  # what the worker runs
    after = owner_api.get(f"/api/sandboxes/{sid}/").data
    assert after["bot"] is None and after["current"] == 1 and after["nodes"][1]["by"] == "bot"
    assert sandbox_bot_answer(*tasks[0][1]) is False  # a duplicate does nothing


def test_a_bot_answer_for_a_point_she_left_is_dropped(game, owner_api, sent_tasks):
    sid = fork(owner_api, game).data["id"]
    seat = owner_api.get(f"/api/sandboxes/{sid}/").data["to_act"][0]
    owner_api.post(f"/api/sandboxes/{sid}/bot/", {"seat": seat}, format="json")
    token = Sandbox.objects.get(pk=sid).bot_token
    legal = owner_api.get(f"/api/sandboxes/{sid}/?seat={seat}").data["legal_actions"]
    owner_api.post(f"/api/sandboxes/{sid}/moves/", {"seat": seat, "action": legal[0]}, format="json")
    assert sandbox_bot_answer(sid, token) is False
    assert len(Sandbox.objects.get(pk=sid).nodes) == 2


def test_unused_sandboxes_expire(game, owner_api, settings):
    settings.TOPOS_SANDBOX_DAYS = 7
    old = fork(owner_api, game).data["id"]
    fresh = fork(owner_api, game).data["id"]
    Sandbox.objects.filter(pk=old).update(used_at=timezone.now() - timedelta(days=8))
    Sandbox.objects.filter(pk=fresh).update(used_at=timezone.now() - timedelta(days=6))
    assert sandboxes_expire() == 1
    assert list(Sandbox.objects.values_list("pk", flat=True)) == [fresh]
    Sandbox.objects.filter(pk=fresh).update(used_at=timezone.now() - timedelta(days=9))
    assert sandboxes_expire_task.apply().get() == 1


def test_anonymous_callers_are_refused(game, client):
    assert client.post(f"/api/tables/{game.pk}/sandboxes/", {}).status_code in (401, 403)


def test_another_seats_unconfirmed_decisions_are_neither_forked_nor_counted(game, owner, member_api):
    # ruling S3: while ana's turn is unconfirmed, bruno's sandbox starts where her turn began, and no answer
    # tells how many decisions she has made in it.
    from games.models import Action
    from games.selectors.positions import load_state
    from games.services import action_submit

    seat = game.to_act[0]
    mover = game.seats.get(index=seat).user
    action = next(a for a in load_state(game).legal_actions(seat) if a["type"] != "end_turn")
    action_submit(game_id=game.pk, user=mover, action=action, expected_version=game.version)
    assert Action.objects.get(game=game).visibility == Action.Visibility.PRIVATE
    watcher = member_api if mover == owner else api_client_for(owner)
    reply = fork(watcher, game)
    assert reply.status_code == 201 and reply.data["ply"] == 0
    refused = fork(watcher, game, ply=1)
    assert refused.status_code == 404 and "0 to 0" in refused.data["detail"]
    assert watcher.put(f"/api/tables/{game.pk}/notes/1/", {"text": "x"}, format="json").status_code == 404
    mine = api_client_for(mover)
    assert mine.put(f"/api/tables/{game.pk}/notes/1/", {"text": "x"}, format="json").status_code == 200
    assert fork(mine, game).data["ply"] == 1

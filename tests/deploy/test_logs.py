"""Structured logs: one JSON line per request and per task (LOG_FORMAT=json), with the fields operators filter on."""

from __future__ import annotations

import json
import logging
import sys

import pytest
from django.test import Client

from config.monitoring.logs import JsonFormatter
from games import tasks
from notifications import tasks as notification_tasks
from tests.config.test_settings import manage
from tests.conftest import api_client_for
from tests.games.tables import topology_table

pytestmark = pytest.mark.django_db


def json_lines(caplog, logger: str) -> list[dict]:
    """The records of `logger` as the JSON formatter writes them, one object a line."""
    formatter = JsonFormatter()
    lines = [formatter.format(record) for record in caplog.records if record.name == logger]
    assert all("\n" not in line for line in lines)
    return [json.loads(line) for line in lines]


def test_a_move_over_the_api_is_one_line_with_the_user_and_the_game(caplog, owner, member):
    game = topology_table(owner, member)
    api = api_client_for(owner)
    caplog.set_level(logging.INFO, logger="topos.request")
    assert api.get(f"/api/tables/{game.pk}/legal-actions/?secret=1").status_code == 200
    (line,) = json_lines(caplog, "topos.request")
    assert line["event"] == "request" and line["level"] == "INFO" and line["logger"] == "topos.request"
    assert {k: line[k] for k in ("method", "path", "status", "user_id", "game_id")} == {
        "method": "GET",
        "path": f"/api/tables/{game.pk}/legal-actions/",
        "status": 200,
        "user_id": owner.pk,
        "game_id": game.pk,
    }  # the query string stays out of the logs
    assert line["duration_ms"] >= 0 and line["time"].endswith("+00:00")


def test_a_page_without_a_table_and_without_a_login_has_neither(caplog):
    caplog.set_level(logging.INFO, logger="topos.request")
    Client().get("/accounts/login/")
    Client().get("/no-such-page/")
    lines = json_lines(caplog, "topos.request")
    assert [(line["path"], line["status"], line["user_id"], line["game_id"]) for line in lines] == [
        ("/accounts/login/", 200, None, None),
        ("/no-such-page/", 404, None, None),
    ]


def test_the_table_page_of_a_logged_in_player_names_both(caplog, client, owner, member):
    game = topology_table(owner, member)
    client.force_login(owner)
    caplog.set_level(logging.INFO, logger="topos.request")
    assert client.get(f"/tables/{game.pk}/").status_code == 200
    (line,) = json_lines(caplog, "topos.request")
    assert (line["user_id"], line["game_id"]) == (owner.pk, game.pk)


def test_a_task_is_one_line_with_its_outcome_and_its_game(caplog, owner, member, celery_eager):
    game = topology_table(owner, member)
    caplog.set_level(logging.DEBUG, logger="topos.task")
    result = tasks.game_effects.delay(game.pk)
    tasks.deadlines_sweep.delay()
    (effects, sweep) = json_lines(caplog, "topos.task")
    assert {k: effects[k] for k in ("event", "task", "task_id", "outcome", "game_id")} == {
        "event": "task",
        "task": "games.tasks.game_effects",
        "task_id": result.id,
        "outcome": "success",
        "game_id": game.pk,
    }
    assert effects["duration_ms"] >= 0
    assert (sweep["task"], sweep["outcome"], sweep["game_id"]) == ("games.tasks.deadlines_sweep", "success", None)


def test_a_failed_task_is_a_warning_with_its_outcome(caplog, celery_eager):
    caplog.set_level(logging.DEBUG, logger="topos.task")
    notification_tasks.notification_email_send.delay("not-an-id")
    (line,) = json_lines(caplog, "topos.task")
    assert (line["level"], line["outcome"]) == ("WARNING", "failure")


def test_an_exception_goes_into_its_line():
    try:
        raise ValueError("boom")
    except ValueError:
        record = logging.LogRecord("x", logging.ERROR, __file__, 1, "it failed", None, exc_info=sys.exc_info())
    line = json.loads(JsonFormatter().format(record))
    assert line["message"] == "it failed" and "ValueError: boom" in line["exception"]


def test_json_is_what_the_processes_write_when_asked():
    done = manage(
        "shell",
        "-c",
        "import logging; logging.getLogger('topos.probe').warning('hello %s', 'there')",
        LOG_FORMAT="json",
        DEBUG="true",
    )
    assert done.returncode == 0, done.stderr
    (line,) = [json.loads(row) for row in done.stderr.splitlines() if '"topos.probe"' in row]
    assert (line["level"], line["message"]) == ("WARNING", "hello there")


def test_an_unknown_log_format_stops_the_site():
    done = manage("check", LOG_FORMAT="xml", DEBUG="true")
    assert done.returncode != 0 and "LOG_FORMAT must be text or json" in done.stderr

"""Schemathesis against the live schema (issue 12, point 7): every operation of /api/schema/, with every response
check on (no server error, documented status codes, content types, headers and bodies, valid requests accepted,
invalid ones refused), so what the schema says is true.

The schema is read from the running Django application (WSGI, in process) when the test runs, so an endpoint
added later is checked without editing this file.  Requests carry the API token of a player who sits at open,
running and finished tables of every game; path parameters are mapped onto those real objects (tables, plies,
invitations, players, leaderboards) most of the time, so the checks see real answers and not only 404s.

Bounded and deterministic for CI: at most EXAMPLES generated cases per operation and phase, derandomized
(Schemathesis' `deterministic` generation, no example database).  The throttles stay on at the test settings'
1000/s (config/testing.py), far above what this test sends, so no 429 makes it flaky.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from accounts.services import api_token_create, user_create
from config.wsgi import application
from games import services
from games.models import Game, Invitation
from ratings.keys import rating_keys
from tests.notifications.tables import open_table
from tests.web.test_web_end_of_game import play_out

pytestmark = pytest.mark.django_db(transaction=False)

# Cases per operation and generation phase; TOPOS_SCHEMATHESIS_EXAMPLES raises it for a longer hunt.
EXAMPLES = int(os.environ.get("TOPOS_SCHEMATHESIS_EXAMPLES", "20"))
PASSWORD = "a-long-test-password"

# What a request that the schema allows may be answered: Schemathesis' own list (success, 401, 403, 404, 409, 429)
# and 422, the refusal of an Idempotency-Key used before for another request (generated keys repeat; the schema
# cannot say "a key you never used").
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
# Operations whose bodies only the rules can judge, so a schema-valid request may still be 400: an action must be
# legal in the position (ruling S3, the games' rules); a table's player count and options depend on the game and
# on each other (e.g. Topology 2-4 players, the advanced variant for two only); the vacation days asked must be
# left this year (ruling S4).  Everything else of theirs is checked as everywhere.
# A tournament's start (5 minutes to 90 days from now) and a challenge's options per game are decided by the rules
# at the time of the request, like a table's options: no schema can say which bodies pass.
RULES_DECIDE = ["table_act", "tables_create", "me_vacation_start", "tournaments_create", "challenge_create"]


def in_the_test_transaction(environ, start_response):
    """The site's WSGI application, answering inside the test's transaction: like Django's test client, it keeps
    the request from closing the database connection (which would end the transaction and the test's data).

    An event stream (text/event-stream) is read up to its opening chunk, then closed, as a client that leaves.
    """
    kinds = []

    def starting(status, headers, *rest):
        kinds.extend(value for name, value in headers if name.lower() == "content-type")
        return start_response(status, headers, *rest)

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        result = application(environ, starting)
        try:
            chunks = iter(result)
            if any(kind.startswith("text/event-stream") for kind in kinds):
                return [next(chunks, b"")]
            return [b"".join(chunks)]
        finally:
            if hasattr(result, "close"):
                result.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _person(name: str):
    return user_create(username=name, email=f"{name}@example.com", password=PASSWORD)


def _seed_tables(me, other) -> dict:
    """Open, running and finished tables of each game with `me` seated; an invitation for her; real plies."""
    tables = []
    for kind, options in (("topology", {}), ("toppo", {"hands": 1}), ("topoum", {})):
        tables.append(services.game_create(user=me, kind=kind, players=2, options=dict(options)))
        tables.append(open_table(kind, me, other, options=options))
    tables.append(play_out(open_table("topology", me, other)))
    tables.append(play_out(open_table("toppo", me, other, options={"hands": 1})))
    tables.append(services.game_create(user=me, kind="topology", players=2, private=True))
    invited_to = services.game_create(user=other, kind="toppo", players=3)
    services.game_invite(user=other, game_id=invited_to.pk, username=me.username)
    tables.append(invited_to)
    assert {g.status for g in Game.objects.filter(pk__in=[g.pk for g in tables])} >= {
        Game.Status.OPEN,
        Game.Status.RUNNING,
        Game.Status.FINISHED,
    }
    return {
        "id": [g.pk for g in tables],
        "ply": [0, 1, 2, 5],
        "invitation": list(Invitation.objects.filter(user=me).values_list("pk", flat=True)),
        "username": [me.username, other.username],
        "key": list(rating_keys()),
    }


def _pick(values: list, generated):
    """A real value chosen by the generated one (deterministic), or the generated one itself one time in four."""
    if not values:
        return generated
    number = generated if isinstance(generated, int) else sum(map(ord, str(generated)))
    return generated if number % 4 == 3 else values[number % len(values)]


@pytest.fixture
def schemer(db):
    """The player whose token signs the requests, and the real objects around her."""
    me, other = _person("schemer"), _person("rival")
    return me, _seed_tables(me, other)


@pytest.fixture
def schemer_key(schemer):
    return api_token_create(user=schemer[0], name="schemathesis")[1]


@pytest.fixture
def live_schema(schemer):
    real = schemer[1]
    config = schemathesis.Config.from_dict(
        {
            "generation": {
                "max-examples": EXAMPLES,
                "deterministic": True,
                "database": "none",
                "allow-extra-parameters": False,
                "with-security-parameters": False,
            },
            "phases": {"stateful": {"enabled": False}},
            "checks": {"positive_data_acceptance": {"expected-statuses": ACCEPTED}},
            "operations": [
                {
                    "include-operation-id": RULES_DECIDE,
                    "checks": {"positive_data_acceptance": {"expected-statuses": [*ACCEPTED, "400"]}},
                }
            ],
            "suppress-health-check": ["all"],
            # Like most HTTP APIs (and DRF), the API ignores query parameters and body fields it does not know, so a
            # client written for a later version still works: negative cases do not add unknown ones.
        }
    )
    schema = schemathesis.openapi.from_wsgi(
        "/api/schema/", in_the_test_transaction, config=config, headers={"Accept": "application/vnd.oai.openapi+json"}
    )

    @schema.hook
    def map_path_parameters(context, path_parameters):
        if not path_parameters:
            return path_parameters
        path = context.operation.path if context.operation is not None else ""
        out = dict(path_parameters)
        for name, value in path_parameters.items():
            if name == "id":
                out[name] = _pick(real["invitation"] if path.startswith("/api/invitations/") else real["id"], value)
            elif name in real:
                out[name] = _pick(real[name], value)
        return out

    @schema.hook
    def map_case(context, case):
        # A cursor is opaque: only one read from a `next` or `previous` link is valid, which no schema can say, so
        # the cases the schema calls valid leave generated ones out (negative cases still send them, and
        # tests/api/test_pagination.py follows real ones).
        positive = case.meta is None or not case.meta.generation.mode.is_negative
        if positive and case.query:
            leaderboard = case.operation.path.startswith("/api/leaderboards/")
            for name in [n for n in case.query if n == "cursor" or (leaderboard and n in ("after", "before"))]:
                del case.query[name]
        return case

    assert get_user_model().objects.filter(username="schemer").exists()
    return schema


schema = schemathesis.pytest.from_fixture("live_schema")


@schema.parametrize()
@hypothesis_settings(
    max_examples=EXAMPLES, derandomize=True, database=None, deadline=None, suppress_health_check=list(HealthCheck)
)
def test_every_operation_answers_as_its_schema_says(case, schemer_key):
    # The token is given explicitly, so the auth check also sends each operation without it and with a wrong
    # one, and expects 401 wherever an account is needed.
    case.call_and_validate(headers={"Authorization": f"Token {schemer_key}"})

"""Schemathesis against the live schema (decision 12, point 7): every operation of /api/schema/, with every response
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

import asyncio
import json
import os

import pytest
import schemathesis
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import Client
from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts.services import activation_path, api_token_create, user_create
from config.wsgi import application
from feed.models import Event
from feed.services import NewEvent, events_record
from games import services
from games.models import Game, Invitation
from ratings.keys import rating_keys
from tests.games.tables import open_table
from tests.web.test_web_end_of_game import play_out

pytestmark = pytest.mark.django_db(transaction=False)

# Cases per operation and generation phase; TOPOS_SCHEMATHESIS_EXAMPLES raises it for a longer hunt.
EXAMPLES = int(os.environ.get("TOPOS_SCHEMATHESIS_EXAMPLES", "20"))
PASSWORD = "a-long-test-password"
# Scenarios of the stateful phase, and calls in each: chains of calls along the schema's links (games.api.schema_links)
STATEFUL_EXAMPLES = int(os.environ.get("TOPOS_SCHEMATHESIS_STATEFUL_EXAMPLES", "25"))
STATEFUL_STEPS = 6

# What a request that the schema allows may be answered: Schemathesis' own list (success, 401, 403, 404, 409, 429)
# and 422, the refusal of an Idempotency-Key used before for another request (generated keys repeat; the schema
# cannot say "a key you never used").
ACCEPTED = ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
# Operations whose bodies only the rules can judge, so a schema-valid request may still be 400: an action must be
# legal in the position (ruling S3, the games' rules); a table's player count and options depend on the game and
# on each other (e.g. Topology 2-4 players, the advanced variant for two only); the vacation days asked must be
# left this year (ruling S4).  Everything else of theirs is checked as everywhere.
# A tournament's start (5 minutes to 90 days from now) and a challenge's options per game are decided by the rules
# at the time of the request, like a table's options: no schema can say which bodies pass.  Quiet hours must start
# and end at different times (ruling S6): no schema can say that two fields differ.
RULES_DECIDE = [
    "table_act",
    "tables_create",
    "me_vacation_start",
    "tournaments_create",
    "challenge_create",
    "me_notification_preferences_update",
    # Decision 29: a sandbox move must be legal in the sandbox's position, a sandbox's seat one of the table's, and a
    # note's text more than blanks (notes and sandboxes, as a table's actions and options).
    "sandbox_move",
    "table_sandbox_create",
    "table_note_put",
    "move_note_put",
    # A webhook's address must be one whose host name resolves, and to no private network (after DNS, at the time of
    # the request): the schema says http(s) only (its pattern), no schema can say which hosts resolve where.
    "me_webhook_create",
    "me_webhook_update",
    # A player named to mute or block: names are trimmed of whitespace as every name field is, and a pattern's "\S"
    # matches characters (such as U+001C) that Python counts as whitespace, so a schema-valid name can still be blank.
    "me_mutes_add",
    "me_blocks_add",
    # A push subscription's keys must be a browser's real P-256 key and auth secret, which only decoding them can
    # tell (and, as above, a pattern's "\S" lets through a value Python trims to blank).
    "me_push_subscription_register",
]


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


def _live(config):
    """The schema the running application serves, with `config`."""
    return schemathesis.openapi.from_wsgi(
        "/api/schema/", in_the_test_transaction, config=config, headers={"Accept": "application/vnd.oai.openapi+json"}
    )


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


def signed_up(name: str, language: str = "es"):
    """A player who signed up as every real one does: the sign-up form in her browser's language, then the link
    of the confirmation mail (followed here by its path, as the mail gives it).  So she has a language."""
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    form = {"username": name, "email": f"{name}@example.com", "password1": PASSWORD, "password2": PASSWORD}
    assert browser.post("/accounts/signup/", form).status_code == 302
    user = get_user_model().objects.get(username=name)
    assert browser.post(activation_path(user)).status_code == 302
    user.refresh_from_db()
    assert user.is_active and user.language == language
    return user


@pytest.fixture
def schemer(db):
    """The player whose token signs the requests, and the real objects around her."""
    me, other = signed_up("schemer"), _person("rival")
    return me, _seed_tables(me, other)


@pytest.fixture
def schemer_key(schemer):
    return api_token_create(user=schemer[0], name="schemathesis")[1]


@pytest.fixture
def live_schema(schemer, schemer_key):
    real = schemer[1]
    config = schemathesis.Config.from_dict(
        {
            # Her token, for the stateful phase (the other tests give it explicitly as well)
            "auth": {"openapi": {"tokenAuth": {"api_key": f"Token {schemer_key}"}}},
            "generation": {
                "max-examples": EXAMPLES,
                "deterministic": True,
                "database": "none",
                "allow-extra-parameters": False,
                "with-security-parameters": False,
                # What no column can store is refused with 400 `bad_characters` (the schema's description says
                # so; config.request_limits), so valid data holds no NUL (nor lone surrogates, which Hypothesis'
                # text never holds): the poisoned test below sends those.
                "allow-x00": False,
            },
            "phases": {"stateful": {"enabled": True, "max-steps": STATEFUL_STEPS}},
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
    schema = _live(config)

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


def test_the_stateful_phase_follows_the_links_the_schema_declares(live_schema, schemer_key):
    """Chains of calls, each taking what an earlier answer gave (a table opened, then joined, played, chatted at...),
    with every check on each answer."""
    created = live_schema["/api/tables/"]["POST"].definition.raw["responses"]["201"]
    assert {"table_join", "table_act"} <= set(created["links"])

    class Workflow(live_schema.as_state_machine()):
        # Each scenario starts from the same data (the seeded tables), as a deterministic run needs.
        def setup(self):
            self.savepoint = transaction.savepoint_create()

        def teardown(self):
            transaction.savepoint_rollback(self.savepoint)

    Workflow.run(
        settings=hypothesis_settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=STATEFUL_STEPS,
            phases=[Phase.generate],  # no shrinking: the calls found are shown as they were made
            derandomize=True,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        )
    )


# --- What no column can store, sent everywhere (config.request_limits) --------------------------------------------
# Every operation again, its generated values poisoned: a NUL or a lone surrogate put into strings (path, query,
# headers, body, keys too), a huge integer in place of numbers.  None may answer 5xx: characters are refused at the
# edge, numbers are bounded before arithmetic.
POISONED_EXAMPLES = int(os.environ.get("TOPOS_SCHEMATHESIS_POISONED_EXAMPLES", "10"))
NUL_TEXTS = ["\x00", "a\x00", "\x00b\x00"]
SURROGATE_TEXTS = ["\ud800", "x\udfff", "\udc00\ud800"]  # only JSON's escapes can carry them
HUGE_NUMBERS = [2**31, 2**63, -(2**63), 999_999_999, 10**30]


@st.composite
def _poisoned(draw, value, texts, keys=True):
    """`value` with some of its strings holding one of `texts` and some of its integers made huge; its keys too
    unless they are names of parameters (`keys` false)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, str):
        if not draw(st.booleans()):
            return value
        at = draw(st.integers(0, len(value)))
        return value[:at] + draw(st.sampled_from(texts)) + value[at:]
    if isinstance(value, int):
        return draw(st.sampled_from(HUGE_NUMBERS)) if draw(st.booleans()) else value
    if isinstance(value, list):
        return [draw(_poisoned(item, texts)) for item in value]
    if isinstance(value, dict):
        return {
            (draw(_poisoned(key, texts)) if keys else key): draw(_poisoned(item, texts)) for key, item in value.items()
        }
    return value


@pytest.fixture
def poisoned_schema(schemer):
    real = schemer[1]
    config = schemathesis.Config.from_dict(
        {
            "generation": {
                "max-examples": POISONED_EXAMPLES,
                "deterministic": True,
                "database": "none",
                "mode": "positive",
                "with-security-parameters": False,
            },
            "phases": {
                "examples": {"enabled": False},
                "coverage": {"enabled": False},
                "stateful": {"enabled": False},
            },
            "suppress-health-check": ["all"],
        }
    )
    schema = _live(config)

    @schema.hook
    def flatmap_path_parameters(context, path_parameters):
        path = context.operation.path if context.operation is not None else ""
        real_ones = {
            name: _pick(real["invitation"] if path.startswith("/api/invitations/") else real["id"], value)
            if name == "id"
            else _pick(real[name], value)
            if name in real
            else value
            for name, value in (path_parameters or {}).items()
        }
        return _poisoned(real_ones, NUL_TEXTS, keys=False)  # a URL cannot carry a lone surrogate

    @schema.hook
    def flatmap_query(context, query):
        return _poisoned(query or {}, NUL_TEXTS, keys=False)

    @schema.hook
    def flatmap_headers(context, headers):
        # Headers stored or logged: a key, an agent.  Latin-1 only, as HTTP carries them.
        return _poisoned({**(headers or {}), "Idempotency-Key": "key", "User-Agent": "bot/1"}, NUL_TEXTS, keys=False)

    @schema.hook
    def flatmap_body(context, body):
        return _poisoned(body, NUL_TEXTS + SURROGATE_TEXTS)

    @schema.hook
    def map_case(context, case):
        if "json" not in (case.media_type or "json"):  # a form cannot carry a lone surrogate either
            case.body = _without_surrogates(case.body)
        return case

    return schema


def _without_surrogates(value):
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace").replace("\ufffd", "\x00")
    if isinstance(value, list):
        return [_without_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_without_surrogates(key): _without_surrogates(item) for key, item in value.items()}
    return value


poisoned = schemathesis.pytest.from_fixture("poisoned_schema")


@poisoned.parametrize()
@hypothesis_settings(
    max_examples=POISONED_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_no_operation_fails_on_what_no_column_can_store(case, schemer_key):
    answer = case.call(headers={"Authorization": f"Token {schemer_key}"})
    assert answer.status_code < 500, f"{case.method} {case.formatted_path}: {answer.status_code} {answer.text[:300]}"


# --- The two event streams, through the ASGI application ----------------------------------------------------------
# Schemathesis reads a stream only through WSGI (above: its opening chunk); the production server serves them from
# config.asgi, in front of Django (feed.asgi).  Each is opened there with the token of a signed-up player (who
# has a language, as every real account) and read up to its first event.  The stream reads the database on other
# threads, so the data is committed (transaction=True).


async def _first_event(path: str, token: str, query: bytes = b"") -> tuple[int, dict, str]:
    """Open `path` on config.asgi's application as a client would, read until the first event (or an answer that is
    not a stream), leave; the status, headers and what was read."""
    from config.asgi import application as asgi_application

    started, read, got, leaving = {}, [], asyncio.Event(), asyncio.Event()

    async def receive():
        if not started.get("asked"):
            started["asked"] = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await leaving.wait()
        return {"type": "http.disconnect"}

    async def send(message):
        if message["type"] == "http.response.start":
            started["status"] = message["status"]
            started["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        elif message["type"] == "http.response.body":
            read.append(message.get("body", b"").decode())
            if "event: " in "".join(read) or not message.get("more_body"):
                got.set()

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"accept", b"text/event-stream"),
            (b"authorization", f"Token {token}".encode("latin-1")),
        ],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }
    serving = asyncio.create_task(asgi_application(scope, receive, send))
    reading = asyncio.create_task(got.wait())
    # 30 s: a bound against hanging, not a timing asserted.  An application that fails ends `serving` first.
    await asyncio.wait({serving, reading}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    leaving.set()
    reading.cancel()
    await asyncio.wait_for(serving, 30)  # raises what the application raised
    return started.get("status"), started.get("headers", {}), "".join(read)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("stream", ["user", "table"])
def test_both_streams_answer_a_signed_up_players_token_through_asgi(stream):
    me = signed_up("streamer")
    table = services.game_create(user=me, kind="topology", players=2)
    # An event of hers waits, so the user stream has one to send at once (the table stream starts with one).
    events_record([NewEvent(me.pk, Event.Kind.MOVE, f"move:{table.pk}:v1", table.pk, {"version": 1})])
    token = api_token_create(user=me, name="stream")[1]
    path = "/api/events/stream/" if stream == "user" else f"/api/tables/{table.pk}/stream/"
    status, headers, read = async_to_sync(_first_event)(path, token, b"after=0" if stream == "user" else b"")
    assert status == 200, read
    assert headers["content-type"].startswith("text/event-stream")
    assert "event: " in read


@pytest.mark.parametrize("token, query", [("a\x00b", b""), ("abc", b"after=%00")])
def test_a_stream_refuses_what_no_column_can_store_like_every_other_path(db, token, query):
    status, _, read = async_to_sync(_first_event)("/api/events/stream/", token, query)
    assert status == 400
    assert json.loads(read)["error"] == "bad_characters"

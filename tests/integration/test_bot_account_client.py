"""Decision 12, bot accounts end to end: examples/bot_client.py runs as its own process against a real uvicorn
process and a real worker; a person invites the bot account to a Topology, a Toppo (correspondence, one hand) and
a Topoum table, plays her own decisions through the services, and the bot accepts and answers through the API
until every game is over.  Without a stream (a WSGI server with TOPOS_WSGI_STREAMS off) it polls the feed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from accounts.services import api_token_create, user_create
from engine.core import get_game
from games import services
from games.errors import Conflict
from games.models import Action, Game
from tests.conftest import TEST_BROKER
from tests.feed.uvicorn_site import Uvicorn
from tests.games.tables import pick
from tests.integration.workers import ROOT, wait_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TABLES = [("topology", {}), ("toppo", {"hands": 1}), ("topoum", {})]
GAME_TIMEOUT = 420  # seconds for all three games together


@pytest.fixture
def site(embedded_worker, tmp_path):
    site = Uvicorn(tmp_path / "uvicorn.log", broker_dir=TEST_BROKER)
    yield site
    site.stop()


@pytest.fixture
def bot_account(db):
    bot = user_create(username="robota", email="robota@example.com", password="x-long-enough-password")
    return services.account_make_bot(user=bot)


def start_client(base: str, bot, log_path, games: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "TOPOS_URL": base,
        "TOPOS_TOKEN": api_token_create(user=bot, name="bot")[1],
        "TOPOS_BOT_GAMES": str(games),
        "TOPOS_BOT_SEED": "12",
    }
    log = open(log_path, "wb")
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "bot_client.py")],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    process.log_path, process.log = log_path, log
    return process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(15)
    process.log.close()


@pytest.fixture
def client_process(site, bot_account, tmp_path):
    process = start_client(site.base, bot_account, tmp_path / "bot_client.log", len(TABLES))
    yield process
    stop(process)


def play_mine(game_id: int, person) -> bool:
    """The person's decision at this table if it is hers; True if she made one."""
    game = Game.objects.get(pk=game_id)
    seat = game.seats.get(user=person).index
    if game.status != Game.Status.RUNNING or seat not in (game.to_act or []):
        return False
    state = get_game(game.kind).load(game.state)
    action = pick(game.kind, state, seat)
    if action["type"] == "renew":
        # Ruling P6: a display nobody can top may be replaced when all agree; after a few renewals in a row she
        # proposes it (the client agrees), or two players could renew for ever.
        recent = list(Action.objects.filter(game=game, seat=seat).order_by("-seq").values_list("action", flat=True)[:5])
        vote = next((a for a in state.legal_actions(seat) if a["type"] == "propose_replace"), None)
        if vote is not None and len(recent) == 5 and all(a.get("type") == "renew" for a in recent):
            action = vote
    try:
        services.action_submit(game_id=game_id, user=person, action=action, expected_version=game.version)
    except Conflict:  # the bot moved at the same moment (Toppo decides at once): read again
        return False
    return True


def games_played_to_the_end(client_process, owner, bot_account, tables_wanted) -> None:
    tables = []
    for kind, options in tables_wanted:
        game = services.game_create(user=owner, kind=kind, players=2, options=options)
        services.game_invite(user=owner, game_id=game.pk, username="ROBOTA")  # by name, any case
        tables.append(game.pk)
    for table in tables:
        wait_for(
            lambda: Game.objects.get(pk=table).seats.filter(user=bot_account).exists(),
            60,
            f"the bot to accept the invitation to table {table}:\n{client_process.log_path.read_text()}",
        )
        services.game_start(user=owner, game_id=table)

    end = time.monotonic() + GAME_TIMEOUT
    while Game.objects.filter(pk__in=tables).exclude(status=Game.Status.FINISHED).exists():
        assert time.monotonic() < end, f"games not over in time:\n{client_process.log_path.read_text()[-3000:]}"
        assert client_process.poll() is None, client_process.log_path.read_text()[-3000:]
        if not any([play_mine(table, owner) for table in tables]):
            time.sleep(0.2)

    client_process.wait(60)  # it stops by itself once it has seen the games finish
    assert client_process.returncode == 0, client_process.log_path.read_text()[-3000:]
    for table in tables:
        game = Game.objects.get(pk=table)
        bot_seat = game.seats.get(user=bot_account).index
        by_bot = Action.objects.filter(game=game, seat=bot_seat, user=bot_account)
        assert by_bot.exists() and set(by_bot.values_list("source", flat=True)) == {Action.Source.PLAYER}
        assert not Action.objects.filter(game=game, seat=bot_seat).exclude(user=bot_account).exists()
        assert f"table {table}: finished" in client_process.log_path.read_text()


def test_the_example_client_accepts_invitations_and_plays_whole_games(site, client_process, owner, bot_account):
    games_played_to_the_end(client_process, owner, bot_account, TABLES)
    assert "polling" not in client_process.log_path.read_text()  # it followed the stream


def test_without_a_stream_the_example_client_polls_the_feed(
    embedded_worker, live_server, settings, owner, bot_account, tmp_path
):
    settings.TOPOS_WSGI_STREAMS = False  # a WSGI server that serves no streams: 503
    process = start_client(live_server.url, bot_account, tmp_path / "bot_client.log", 1)
    try:
        games_played_to_the_end(process, owner, bot_account, TABLES[:1])
        assert "no event stream (503); polling" in process.log_path.read_text()
    finally:
        stop(process)

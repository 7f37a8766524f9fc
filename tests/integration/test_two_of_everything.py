"""Two of everything: two web processes and two workers on one PostgreSQL and one Redis, one of each killed mid-play.

The web processes are `serve.sh web` as production runs them (gunicorn with uvicorn workers on config.asgi,
`TOPOS_ASGI=1`, config.production), each on its own port; the workers are `celery -A config worker` on the same Redis,
with the deployment's one beat.
People play Topology through the API, each decision sent to the other web process than her last one; two tables are
against a greedy bot, so the workers play real moves.  Every person also follows her event stream on both web
processes.  Mid-play one web process and one worker are killed (SIGKILL to the whole process group: the machine
died).  A request that got no answer is sent again, with the same Idempotency-Key, to the web process still up (what a
load balancer and a careful client do), and so is a stream: it reconnects there after the last id it saw.

What must hold, whatever the moment of the kills:
- each table's log is contiguous and its people's decisions in it are exactly those their clients got a 2xx for;
- a request sent again with its Idempotency-Key gets the first answer (`Idempotent-Replayed`) and applies nothing;
- the bot plays each of its turns exactly once (a task lost with its worker is redelivered by Redis and carries its
  seat's token, games.services.bots); every turn is told once (one `your_turn` event per turn, ruling S6);
- each stream, on either web process, delivered every event of its person, each once.

A process killed between its commit and sending the task that follows it (a web process after a move, a worker after
claiming a bot's turn) leaves the work to beat's outbox sweep: the table waits, nothing is lost (found by this test: a
dispatch the dead web process never sent; a bot task the dead worker had taken from Redis but not yet recorded as
taken, whose seat's claim holds until BOT_TASK_LOST_AFTER).

The test users have no language (the tests' `user_create` default).  Nothing here asserts how long anything took.
"""

from __future__ import annotations

import itertools
import json
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from datetime import timedelta

import pytest

from accounts.services import api_token_create, user_create
from feed.models import Event
from games.models import Action, Game, GameEffects
from games.services import bots
from notifications.models import Notification
from tests.deploy.served import ROOT, Served, free_port, production_env
from tests.feed.uvicorn_site import EventStream
from tests.games.tables import topology_table
from tests.integration.workers import TEST_REDIS_URL, Beat, shared_database_url, wait_for

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TURNS = 4  # each person's turns at each of her tables
BOT_TURN = ["place", "place", "place", "end_turn"]  # a Topology turn of two players (ruling L5)
KILL_AFTER = 24  # decisions answered in all before the kills: well into play, well before its end
HELD = "bot move paused"  # the worker's log line as it holds a bot move open (TOPOS_BOT_TEST_SLEEP)
# A bot task lost with its worker before Redis recorded it as taken (the worker died between taking the message
# and noting it unacknowledged) holds its seat's claim until BOT_TASK_LOST_AFTER, and beat's sweep then asks the bot
# again (games.services.bots, ruling S2): that wait, not lost work, is the longest a table may stall here.
LOST_AFTER = getattr(bots, "BOT_TASK_LOST_AFTER", timedelta(seconds=180)).total_seconds()
DEADLINE = LOST_AFTER + 120  # seconds: a stuck table fails the test instead of hanging it


class NoAnswer(Exception):
    """The web process never answered (refused, reset, or cut off mid-answer)."""


def send(base: str, method: str, path: str, *, token: str, body: dict | None = None, key: str | None = None):
    """(status, headers, body as JSON) of one request, as the TLS proxy in front passes it on."""
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "X-Forwarded-Proto": "https"}
    if key:
        headers["Idempotency-Key"] = key
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"{}")
    except (urllib.error.URLError, ConnectionError, TimeoutError, socket.timeout, ValueError) as exc:
        raise NoAnswer(str(exc)) from exc


class Cluster:
    """The two web processes as a load balancer sees them: a dead one is taken out of the rotation."""

    def __init__(self, webs: list[Served]):
        self.webs = webs
        self.dead: set[int] = set()
        self.unanswered = 0  # requests a dead process never answered, sent again to the other
        self.statuses: list[int] = []
        self.posting = [0, 0]  # POSTs under way at each web process
        self.lock = threading.Lock()

    def base(self, n: int) -> str:
        """Web process n, or the other one if n is out of the rotation."""
        return self.webs[1 - n if n in self.dead else n].base

    def call(self, n: int, method: str, path: str, **kwargs):
        """Send to web process n; with no answer, the same request (same Idempotency-Key) to the other one."""
        n = 1 - n if n in self.dead else n
        writing = method == "POST"
        with self.lock:
            self.posting[n] += writing
        try:
            answer = send(self.webs[n].base, method, path, **kwargs)
        except NoAnswer:
            with self.lock:
                self.unanswered += 1
            answer = send(self.base(1 - n), method, path, **kwargs)
        finally:
            with self.lock:
                self.posting[n] -= writing
        with self.lock:
            self.statuses.append(answer[0])
        return answer


class Player(threading.Thread):
    """One person at one table, playing TURNS turns through the API, each decision on the other web process."""

    def __init__(self, cluster: Cluster, user, token: str, game: Game, first_web: int):
        super().__init__(daemon=True)
        self.cluster, self.user, self.token, self.game_id = cluster, user, token, game.pk
        self.web = first_web
        self.applied: list[int] = []  # the versions her 2xx answers gave: her decisions' seq in the log
        self.replays = 0
        self.told: set[str] = set()  # the turns her feed told her of
        self.cursor = 0
        self.error: BaseException | None = None

    def read_feed(self) -> None:
        """Her new events from `GET /api/events/?after=`, on the web process she would use next."""
        status, _, page = self.cluster.call(self.web, "GET", f"/api/events/?after={self.cursor}", token=self.token)
        assert status == 200, page
        self.told |= {
            f"turn:{event['table']}:{event['data']['seat']}:v{event['data']['turn_began']}"
            for event in page["results"]
            if event["kind"] == "your_turn"
        }
        self.cursor = page["cursor"]
        if not page["more"]:
            time.sleep(0.1)

    def run(self):
        try:
            self.play()
        except BaseException as exc:  # reported by the test, with the rest
            self.error = exc

    def play(self):
        end, turns, counter, turn_starts = time.monotonic() + DEADLINE, 0, itertools.count(), True
        legal_path, actions_path = f"/api/tables/{self.game_id}/legal-actions/", f"/api/tables/{self.game_id}/actions/"
        while turns < TURNS:
            assert time.monotonic() < end, f"{self.user.username} stuck at table {self.game_id}"
            status, _, legal = self.cluster.call(self.web, "GET", legal_path, token=self.token)
            assert status == 200, legal
            if not legal["my_turn"]:
                time.sleep(0.2)
                continue
            if turn_starts:
                # She plays when told, as a correspondence player does: the turn's event, read from her feed.
                told = f"turn:{self.game_id}:{legal['seat']}:v{legal['version']}"
                while told not in self.told:
                    assert time.monotonic() < end, f"{self.user.username} never told of {told}"
                    self.read_feed()
                turn_starts = False
            action = next(a for a in legal["actions"] if a["type"] != "undo")
            body = {"action": action, "expected_version": legal["version"]}
            key = f"{self.user.username}-{self.game_id}-{next(counter)}"
            while True:
                status, headers, answer = self.cluster.call(
                    self.web, "POST", actions_path, token=self.token, body=body, key=key
                )
                if status != 429:  # a limit ran out: not recorded, the same request may come again
                    break
                time.sleep(float(headers.get("Retry-After") or 1))
            assert status == 200, (status, answer)
            self.applied.append(answer["version"])
            if len(self.applied) % 3 == 0:
                # Sent again on purpose, to the other web process: the first answer, nothing applied.
                again = self.cluster.call(1 - self.web, "POST", actions_path, token=self.token, body=body, key=key)
                assert again[0] == status and again[2] == answer, again
                assert again[1].get("Idempotent-Replayed") == "true"
                self.replays += 1
            if action["type"] == "end_turn":
                turns, turn_starts = turns + 1, True
            self.web = 1 - self.web  # players alternate the web process each decision goes to


class Follower(threading.Thread):
    """Her event stream on one web process; when that process dies, resumed on the other after the last id seen
    (as a browser does with Last-Event-ID)."""

    def __init__(self, cluster: Cluster, token: str, web: int):
        super().__init__(daemon=True)
        self.cluster, self.token, self.web = cluster, token, web
        self.ids: list[int] = []
        self.reconnects = 0
        self.opened = threading.Event()

    def run(self):
        after = 0
        while True:
            base = self.cluster.base(self.web)
            request = urllib.request.Request(
                f"{base}/api/events/stream/?after={after}",
                headers={
                    "Authorization": f"Token {self.token}",
                    "Accept": "text/event-stream",
                    "X-Forwarded-Proto": "https",
                },
            )
            try:
                stream = EventStream(urllib.request.urlopen(request, timeout=30))
                assert stream.status == 200
                self.opened.set()
                while True:
                    block = stream.next_block()
                    if "event" in block and "id" in block:
                        self.ids.append(int(block["id"]))
                        after = int(block["id"])
            except Exception:
                if not self.cluster.dead or self.reconnects:
                    return  # the end of the test (the servers stop), or a second failure: the test will see it
                self.reconnects += 1
                self.web = 1 - self.web


@pytest.fixture
def two_webs(redis_broker, tmp_path):
    """Two `serve.sh web` (uvicorn workers) on the test database and Redis, on ports of their own."""
    static = tmp_path / "static"
    envs = [
        production_env(
            static,
            free_port(),
            DATABASE_URL=shared_database_url(),
            REDIS_URL=TEST_REDIS_URL,
            TOPOS_ASGI="1",
            WEB_CONCURRENCY="1",
        )
        for _ in range(2)
    ]
    collected = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=envs[0],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert collected.returncode == 0, collected.stdout + collected.stderr
    webs = [Served(env, tmp_path / f"web{n}.log", "web") for n, env in enumerate(envs)]
    try:
        for web in webs:
            web.wait_answer("/healthz/web")
        yield webs
    finally:
        for web in webs:
            web.stop()
            web.kill_group()


@pytest.fixture
def beat(redis_broker, tmp_path):
    """The one beat of the deployment: its outbox sweep sends what a killed process left unsent."""
    process = Beat("beat", tmp_path / "beat.log")
    try:
        process.wait_ready()
        yield process
    finally:
        process.stop()


def tables_now(tables: list[Game], redis) -> str:
    """What a failure needs to be understood: each table, its dispatch cursor, seats and turn events; the marks."""
    lines = [
        f"queued marks: {sorted(k.decode() for k in redis.keys('topos:effects:queued:*'))}",
        f"Redis: {[(k.decode(), redis.type(k).decode()) for k in redis.keys('*') if b'throttle' not in k]}",
        f"unacknowledged: {[v[:300] for v in redis.hvals('unacked')]}",
    ]
    for game in Game.objects.filter(pk__in=[t.pk for t in tables]).order_by("pk"):
        effects = GameEffects.objects.filter(game=game).values("version", "status", "queued_at").first()
        seats = list(
            game.seats.order_by("index").values("index", "user__username", "turn_began", "bot_task", "bot_task_due")
        )
        turns = list(Event.objects.filter(game=game, kind="your_turn").values_list("key", flat=True))
        lines.append(f"table {game.pk}: v{game.version} to_act {game.to_act}; effects {effects}; {seats}; {turns}")
    return "\n".join(lines)


def told_up_to_date(game: Game) -> bool:
    """The table's effects cursor has reached its version: everything that happened at it has been told."""
    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
    return GameEffects.objects.filter(game=game, version=version).exists()


def soon(check, timeout: float = 10) -> bool:
    """Whether `check()` comes true within `timeout` seconds (a moment worth waiting for, not a requirement)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.02)
    return False


def turns_told(game: Game) -> dict[int, set[str]]:
    """Per seat, the keys of the `your_turn` events the log says were due: the start, and each confirmed turn that
    handed her the table (ruling S6)."""
    due: dict[int, set[str]] = {0: {f"turn:{game.pk}:0:v0"}, 1: set()}
    for seq, seat, kind in Action.objects.filter(game=game).values_list("seq", "seat", "action__type"):
        if kind == "end_turn":
            due[1 - seat].add(f"turn:{game.pk}:{1 - seat}:v{seq}")
    return due


def test_two_webs_and_two_workers_lose_nothing_and_double_nothing_when_one_of_each_is_killed(
    two_webs, start_worker, beat, redis_broker
):
    # Worker two holds each bot move open a moment before its commit, so that it can be killed in the middle of one.
    workers = [start_worker("one"), start_worker("two", TOPOS_BOT_TEST_SLEEP=2)]
    cluster = Cluster(two_webs)
    people = {
        name: user_create(username=name, email=f"{name}@example.com", password="a-long-test-password")
        for name in ("ana", "bruno", "chen", "dora", "eli", "fay")
    }
    tokens = {name: api_token_create(user=user, name="two")[1] for name, user in people.items()}
    p = people
    # Two tables between people, two against a bot; each person's first decision goes to a different web process.
    tables = [
        topology_table(p["ana"], p["bruno"]),
        topology_table(p["chen"], p["dora"]),
        topology_table(p["eli"], bots=["greedy"]),
        topology_table(p["fay"], bots=["greedy"]),
    ]
    followers = {(name, web): Follower(cluster, tokens[name], web) for name in people for web in (0, 1)}
    for follower in followers.values():
        follower.start()
    for follower in followers.values():
        assert follower.opened.wait(30), "a stream did not open"
    players = [
        Player(cluster, user, tokens[user.username], game, first_web=n % 2)
        for n, (game, user) in enumerate(
            (game, seat.user) for game in tables for seat in game.seats.order_by("index") if seat.user_id
        )
    ]
    for player in players:
        player.start()

    wait_for(lambda: sum(len(pl.applied) for pl in players) >= KILL_AFTER, DEADLINE, "play to be under way")
    # Web process 2's machine dies, if it can be while it takes a move (its answer is lost, maybe not its write).
    posting = soon(lambda: cluster.posting[1] > 0)
    cluster.dead.add(1)
    two_webs[1].kill_group()
    # And worker 2's, if it can be in the middle of a bot's move (Redis gives the task back after its visibility
    # timeout, to worker 1, with the seat's token: the move is played once).
    held = workers[1].output().count(HELD)
    mid_move = soon(lambda: workers[1].output().count(HELD) > held, 60)
    time.sleep(1)  # into its 2 s hold: the worker's consumer is done taking the messages it was taking
    workers[1].kill()

    for player in players:
        player.join(DEADLINE)
        assert player.error is None, f"{player.user.username}: {player.error!r}\n{tables_now(tables, redis_broker)}"
        assert not player.is_alive()
    # The bot answers each person's last turn (a task lost with the dead worker comes back: see LOST_AFTER).
    for game in tables[2:]:
        if not soon(lambda g=game: Game.objects.get(pk=g.pk).to_act == [0], DEADLINE):
            raise AssertionError(f"the bot's last turn never came:\n{tables_now(tables, redis_broker)}")

    # and the last change of every table is told (by its dispatch, or beat's sweep if a kill left it unsent)
    for game in tables:
        if not soon(lambda g=game: told_up_to_date(g), DEADLINE):
            raise AssertionError(f"the last change was never told:\n{tables_now(tables, redis_broker)}")

    # The log: contiguous, and the people's decisions in it exactly those answered 2xx, once each.
    by_game = {game.pk: [pl for pl in players if pl.game_id == game.pk] for game in tables}
    for game in tables:
        game = Game.objects.get(pk=game.pk)
        log = list(Action.objects.filter(game=game).order_by("seq").values_list("seq", "source", "user_id"))
        assert [seq for seq, _, _ in log] == list(range(1, game.version + 1))
        for player in by_game[game.pk]:
            mine = [seq for seq, source, user in log if source == "player" and user == player.user.pk]
            assert mine == player.applied, player.user.username
        # two whole turns a round (hers and the other person's or the bot's), each played exactly once
        assert len(log) == 2 * TURNS * len(BOT_TURN)
        if game.seats.filter(user__isnull=True).exists():
            kinds = list(Action.objects.filter(game=game).order_by("seq").values_list("source", "action__type"))
            assert kinds == ([("player", k) for k in BOT_TURN] + [("bot", k) for k in BOT_TURN]) * TURNS

    # Every turn told once, as an event in her feed; her one unread "your turn" names her latest turn.
    for game in tables:
        game = Game.objects.get(pk=game.pk)
        for seat in game.seats.filter(user__isnull=False):
            due = turns_told(game)[seat.index]
            told = Event.objects.filter(user=seat.user, game=game, kind="your_turn")
            assert sorted(told.values_list("key", flat=True)) == sorted(due)
            if game.to_act == [seat.index]:
                latest = max(due, key=lambda k: int(k.rsplit(":v", 1)[1]))
                unread = Notification.objects.filter(recipient=seat.user, game=game, kind="your_turn", read_at=None)
                assert list(unread.values_list("key", flat=True)) == [latest]

    # Every stream, on either web process, delivered every event of its person, each once and in order.
    for (name, web), follower in followers.items():
        every = list(Event.objects.filter(user=people[name]).order_by("id").values_list("id", flat=True))
        wait_for(lambda f=follower, e=every: f.ids[-1:] == e[-1:], 60, f"{name}'s stream on web {web} to catch up")
        assert follower.ids == every, (name, web)
        assert follower.reconnects == (1 if web == 1 else 0)

    assert sum(pl.replays for pl in players) > 0
    # What the kills hit (it varies from run to run; the guarantees above hold whatever it was).
    print(
        f"killed web 2 with a move under way: {posting}; worker 2 mid bot move: {mid_move}; "
        f"requests sent again after web 2 died: {cluster.unanswered}"
    )
    assert all(status < 500 for status in cluster.statuses)
    assert "Traceback" not in two_webs[0].output()

#!/usr/bin/env python3
"""A complete outside bot for Topos, on the Python standard library alone.

It logs in with an API token of a bot account, follows the account's event stream, accepts every invitation and
plays a random legal action whenever it is its turn, until each game finishes.

    TOPOS_URL=http://127.0.0.1:8000 TOPOS_TOKEN=tps_... python3 examples/bot_client.py

Optional: TOPOS_BOT_GAMES=<n> stops after n games have finished (0, the default: run for ever);
TOPOS_BOT_SEED=<int> makes the random choices repeatable.

What it relies on (all in the API documentation at /api/docs/):
  GET  /api/events/?after=<cursor>        the feed, to learn the cursor to follow from, and to poll when no stream
  GET  /api/events/stream/?after=<cursor> server-sent events: invited, started, your_turn, move, finished
  GET  /api/invitations/                  invitations to open tables; POST /api/invitations/<id>/accept/
  GET  /api/tables/mine/                  tables it sits at (on start, to finish games already under way)
  GET  /api/tables/<id>/legal-actions/    its seat's legal actions now and the game's version
  POST /api/tables/<id>/actions/          {"action": ..., "expected_version": ...}; 409 if the game moved on
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
import urllib.error
import urllib.request

# Actions a random player leaves alone so that its games end: taking back its own move, and Toppo's display
# votes (they use up no claim, so two random voters could vote for ever).
SKIPPED = {"undo", "propose_replace", "agree_replace"}
# Toppo moves a player makes whenever it can, best first (a random renewal would let a hand run on for long).
PREFERRED = ("toppo", "top", "match", "agree_replace")


class Api:
    def __init__(self, base: str, token: str):
        self.base = base.rstrip("/")
        self.headers = {"Authorization": f"Token {token}", "Accept": "application/json"}

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        data = None if body is None else json.dumps(body).encode()
        headers = {**self.headers, **({"Content-Type": "application/json"} if data else {})}
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        for attempt in range(5):
            try:
                with urllib.request.urlopen(request, timeout=30) as answer:
                    raw = answer.read()
                    return answer.status, json.loads(raw) if raw else {}
            except urllib.error.HTTPError as error:
                raw = error.read()
                if error.code == 429 or error.code >= 500:  # wait as told, then try again
                    time.sleep(float(error.headers.get("Retry-After") or 1 + attempt))
                    continue
                return error.code, json.loads(raw) if raw else {}
            except urllib.error.URLError:
                time.sleep(1 + attempt)
        raise SystemExit(f"{method} {path}: the server does not answer")

    def stream(self, cursor: int):
        """Yields (event id, event) from the stream until it ends; raises OSError if it cannot be opened."""
        request = urllib.request.Request(
            f"{self.base}/api/events/stream/?after={cursor}", headers={**self.headers, "Accept": "text/event-stream"}
        )
        with urllib.request.urlopen(request, timeout=60) as answer:  # a comment arrives every 15 s
            fields: dict = {}
            for line in answer:
                line = line.decode().rstrip("\r\n")
                if line:
                    name, _, value = line.partition(":")
                    fields[name] = value[1:] if value.startswith(" ") else value
                    continue
                if "data" in fields and fields.get("event"):
                    yield int(fields["id"]), json.loads(fields["data"])
                fields = {}


class Bot:
    def __init__(self, api: Api, games_to_play: int = 0):
        self.api = api
        self.games_to_play = games_to_play
        self.finished: set[int] = set()
        self.cursor = 0

    def log(self, text: str) -> None:
        print(text, flush=True)

    # -- what it does -----------------------------------------------------------------------------------------
    def accept_invitations(self) -> None:
        status, page = self.api.call("GET", "/api/invitations/")
        for invitation in page.get("results", []) if status == 200 else []:
            status, body = self.api.call("POST", f"/api/invitations/{invitation['id']}/accept/")
            self.log(
                f"invitation to table {invitation['table']} ({invitation['kind']}) from "
                f"{invitation['invited_by']}: {'accepted' if status == 200 else body.get('detail', status)}"
            )

    @staticmethod
    def choices(actions: list[dict]) -> list[dict]:
        """What it picks from: an action that lays cards or ends the hand if there is one, agreeing when another
        player proposed a new display (Toppo, ruling P6), else anything but taking back and proposing."""
        for wanted in PREFERRED:
            found = [a for a in actions if a.get("type") == wanted]
            if found:
                return found
        return [a for a in actions if a.get("type") not in SKIPPED] or actions

    def play(self, table: int) -> None:
        """Decides at `table` while it is this bot's turn; a 409 (the game moved on) means: read it again."""
        while True:
            status, legal = self.api.call("GET", f"/api/tables/{table}/legal-actions/")
            if status != 200 or not legal.get("my_turn"):
                return
            choices = self.choices(legal["actions"])
            if not choices:
                return
            action = random.choice(choices)
            status, body = self.api.call(
                "POST", f"/api/tables/{table}/actions/", {"action": action, "expected_version": legal["version"]}
            )
            if status == 200:
                self.log(f"table {table} v{legal['version']}: played {json.dumps(action, sort_keys=True)}")
            elif status != 409:
                self.log(f"table {table}: {action} refused ({status}): {body.get('detail')}")
                return

    def catch_up(self) -> None:
        """On start: the cursor to follow from, invitations waiting, and its turns at tables already running."""
        more = True
        while more:
            status, page = self.api.call("GET", f"/api/events/?after={self.cursor}&limit=200")
            if status != 200:
                raise SystemExit(f"cannot read the event feed ({status}): {page.get('detail')}")
            self.cursor, more = page["cursor"], page["more"]
        self.accept_invitations()
        status, page = self.api.call("GET", "/api/tables/mine/?finished=false")
        for table in page.get("results", []) if status == 200 else []:
            if table.get("my_turn"):
                self.play(table["id"])

    def handle(self, event: dict) -> None:
        kind, table = event["kind"], event.get("table")
        if kind == "invited":
            self.accept_invitations()
        elif kind in ("your_turn", "started") and table:
            self.play(table)
        elif kind == "finished" and table and table not in self.finished:
            self.finished.add(table)
            self.log(f"table {table}: finished")

    def done(self) -> bool:
        return bool(self.games_to_play) and len(self.finished) >= self.games_to_play

    # -- the loop ---------------------------------------------------------------------------------------------
    def run(self) -> None:
        self.catch_up()
        streaming = True
        while not self.done():
            if not streaming:
                self.poll_once()
                time.sleep(2)
                continue
            try:
                for event_id, event in self.api.stream(self.cursor):
                    self.cursor = event_id
                    self.handle(event)
                    if self.done():
                        return
            except urllib.error.HTTPError as refused:  # no stream here (a 503 under WSGI): poll the feed
                self.log(f"no event stream ({refused.code}); polling /api/events/ instead")
                streaming = False
            except (OSError, ValueError) as problem:  # the connection broke: catch up, then follow again
                self.log(f"stream interrupted ({problem}); reconnecting")
                self.poll_once()
                time.sleep(1)

    def poll_once(self) -> None:
        status, page = self.api.call("GET", f"/api/events/?after={self.cursor}")
        for event in page.get("results", []) if status == 200 else []:
            self.cursor = event["id"]
            self.handle(event)


def main() -> None:
    url, token = os.environ.get("TOPOS_URL"), os.environ.get("TOPOS_TOKEN")
    if not url or not token:
        sys.exit("Set TOPOS_URL (e.g. http://127.0.0.1:8000) and TOPOS_TOKEN (an API token of a bot account).")
    if os.environ.get("TOPOS_BOT_SEED"):
        random.seed(int(os.environ["TOPOS_BOT_SEED"]))
    Bot(Api(url, token), games_to_play=int(os.environ.get("TOPOS_BOT_GAMES") or 0)).run()


if __name__ == "__main__":
    main()

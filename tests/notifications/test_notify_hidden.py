"""Ruling G0.3: no notification or email tells its reader anything the game hides from her.

A whole two-player game of each real game is played through the site, with a reminder and a missed
deadline (whose turn the bot plays and describes) on the way.  Every text is checked as it is written, twice:
- while the effects run, the stored position carries the engine's own markers in every hidden place
  (`Game.plant_secrets`: Topoum's hands, deck and crate values, Topology's stack, Toppo's decks, stack,
  covered cards and sealed claims, the seed); a text may hold only its reader's own markers;
- against the real hidden information of the real position: the seed, and what each game hides in the
  words its log lines would use (Topology's face-down tile numbers, Topoum's cards in other hands and in the
  deck and the values of crates she has not seen, Toppo's cards in the decks, the stack and under the display).
"""

from __future__ import annotations

import re
from contextlib import contextmanager, nullcontext
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from config.celery import app
from engine.core import get_game
from engine.topoum.cards import title
from engine.toppo.cards import card_words
from games import tasks
from games.models import Game
from notifications.events import reminders_send
from notifications.models import Notification
from tests.games.tables import open_table, play_turn, read_by_her

pytestmark = pytest.mark.django_db(transaction=True)


class HeldTasks:
    """Tasks are held where a broker would keep them; `deliver` runs them here, in the order sent."""

    def __init__(self):
        self.queue: list[tuple] = []

    def send(self, task, args=None, kwargs=None, **options):
        self.queue.append((task, tuple(args or ())))

    def deliver(self, around=None):
        while self.queue:
            task, args = self.queue.pop(0)
            if around is None:
                task.apply(args)
            else:
                with around(task):
                    task.apply(args)


@pytest.fixture
def held(monkeypatch):
    queue = HeldTasks()
    monkeypatch.setattr(app.conf, "task_always_eager", False)
    monkeypatch.setattr(
        "celery.app.task.Task.apply_async",
        lambda task, args=None, kwargs=None, **options: queue.send(task, args, kwargs, **options),
    )
    return queue


# --- the real hidden information, in the words a text would use ------------------------------------------


def topology_hidden(state, seat: int) -> list[re.Pattern]:
    """The face-down tiles: log lines never number a tile, so no tile of the stack may be named."""
    return [re.compile(rf"\btiles?\s*(no\.|#)?\s*{tile}\b", re.I) for tile in state.stack]


def topoum_hidden(state, seat: int) -> list[re.Pattern]:
    """Cards in the other hands and the deck (of a kind she sees nowhere); crates she has not looked at."""
    seen = set(state.hands[seat]) | set(state.piles[seat]) | {c for c in state.line if c} | set(state.trash)
    seen |= {pile[-1] for pile in state.piles if pile}
    unseen = {c for s, hand in enumerate(state.hands) if s != seat for c in hand} | set(state.deck)
    patterns = [re.compile(re.escape(title(card)), re.I) for card in sorted(unseen - seen)]
    known = {state.crate_values[k] for k in state.crate_known[seat]}
    unknown = {v for k, v in enumerate(state.crate_values) if k not in state.crate_known[seat]} - known
    # a value said of a crate within one clause; the numbers of a hex such as (3,0) are not values
    patterns += [re.compile(rf"crate[^.;:]*?(?<![(,\d-]){value}(?![\d,)])", re.I) for value in sorted(unknown)]
    return patterns


def toppo_hidden(state, seat: int) -> list[re.Pattern]:
    """Cards face down in the decks and the stack or covered on the display, of a kind nobody sees now."""
    seen = {card for line in state.lines for card in line} | {pile[-1] for pile in state.display}
    hidden = {c for deck in state.decks for c in deck} | set(state.stack) | {c for p in state.display for c in p[:-1]}
    return [re.compile(rf"\b{card_words(card)}\b", re.I) for card in sorted(hidden - seen)]


HIDDEN = {"topology": topology_hidden, "topoum": topoum_hidden, "toppo": toppo_hidden}


class Reader:
    """Checks each new notification and email against what its reader may not know."""

    def __init__(self, game: Game):
        self.game = game
        self.seat_of = {s.user_id: s.index for s in game.seats.all()}
        self.email_seat = {s.user.email: s.index for s in game.seats.select_related("user")}
        self.seen_notes, self.seen_mails, self.checked, self.hidden_words = 0, 0, 0, 0

    def new_texts(self) -> list[tuple[int, str]]:
        notes = list(Notification.objects.filter(pk__gt=self.seen_notes).order_by("pk"))
        mails = mail.outbox[self.seen_mails :]
        self.seen_notes = max([self.seen_notes] + [n.pk for n in notes])
        self.seen_mails = len(mail.outbox)
        return [(self.seat_of[n.recipient_id], read_by_her(n)) for n in notes] + [
            (self.email_seat[m.to[0]], m.subject + "\n" + m.body) for m in mails
        ]

    def check(self, planted: dict) -> None:
        """`planted`: the markers of the position the texts were written from, per seat that may see them."""
        fresh = Game.objects.get(pk=self.game.pk)
        state = get_game(fresh.kind).load(fresh.state)
        for seat, text in self.new_texts():
            assert fresh.seed not in text
            for owner, markers in planted.items():
                if owner != seat:
                    assert not [m for m in markers if m in text], text
            hidden = HIDDEN[fresh.kind](state, seat)
            leaks = [p.pattern for p in hidden if p.search(text)]
            assert not leaks, f"{text!r} names hidden {leaks}"
            self.hidden_words += len(hidden)
            self.checked += 1

    @contextmanager
    def secrets_planted(self):
        """The stored position with the engine's markers in every hidden place, and a marker for a seed."""
        fresh = Game.objects.get(pk=self.game.pk)
        engine = get_game(fresh.kind)
        state = engine.load(fresh.state)
        planted = engine.plant_secrets(state)
        planted.setdefault(None, []).append("SECRET-table-seed")
        Game.objects.filter(pk=fresh.pk).update(state=state.to_json(), seed="SECRET-table-seed")
        try:
            yield planted
        finally:
            Game.objects.filter(pk=fresh.pk).update(state=fresh.state, seed=fresh.seed)
        self.check(planted)

    def around(self, task):
        """Tasks that speak to people run on the planted position; moves (deadlines, bots) on the real one."""
        if task.name in ("games.tasks.game_effects", "games.notifications.tasks.notification_email_send"):
            return self.secrets_planted()
        return nullcontext()


CASES = [
    pytest.param("topology", {}, id="topology"),
    # with the farmer Lord of the Crates in the deck, four crates of hidden value lie on the board (ruling T8)
    pytest.param("topoum", {"deck": "preset", "preset": "strategists", "farmer": "lord_of_the_crates"}, id="topoum"),
    pytest.param("toppo", {"hands": 1}, id="toppo"),
]


@pytest.mark.parametrize("kind,options", CASES)
def test_no_notification_text_reveals_what_the_game_hides(kind, options, owner, member, held):
    game = open_table(kind, owner, member, options=options)
    reader = Reader(game)
    users = {0: owner, 1: member}
    held.deliver(reader.around)
    decisions_before_the_miss = 12
    missed = False
    while game.is_running:
        seat = game.to_act[0]
        if not missed and game.version >= decisions_before_the_miss:
            # a reminder, then a missed deadline played by the bot (a whole turn, or a Toppo claim)
            game.seats.filter(index=seat).update(deadline=timezone.now() + timedelta(minutes=30))
            with reader.secrets_planted():
                assert reminders_send() == 1
            held.deliver(reader.around)
            game.seats.filter(index=seat).update(deadline=timezone.now() - timedelta(seconds=1))
            assert tasks.deadlines_sweep() == 1
            missed = True
        else:
            play_turn(game, users[seat])
        held.deliver(reader.around)
        game.refresh_from_db()
    kinds = set(Notification.objects.values_list("kind", flat=True))
    assert kinds == {"started", "your_turn", "deadline", "bot_played", "finished"}
    assert reader.checked == Notification.objects.count() + len(mail.outbox)
    assert reader.hidden_words > 0  # the real checks had something to look for

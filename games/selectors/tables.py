"""Reads: what a person may see of tables and games, built from her seat's view only."""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from datetime import UTC, datetime
from functools import cache
from typing import NamedTuple

from django.db import connection
from django.db.models import (
    Case,
    Count,
    DateTimeField,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    Subquery,
    Value,
    When,
    prefetch_related_objects,
)
from django.utils import timezone

from boards.registry import game_module
from engine.core import get_game

from .. import hooks
from ..engine_texts import game_title
from ..log_words import entry_words, name_of, seat_names
from ..models import Action, Game, Invitation, Seat
from ..ranking import aborted_words, is_leave, leave_words, result_summary, winners
from ..ranking import first_turns_pending as replayed_first_turns_pending
from . import vacation
from .legal_kept import legal_keep, legal_kept
from .positions import legal_actions_for, load_state, seat_of
from .spectating import spectator_count

_SEATS = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))
SEATS_WITH_PLAYERS = _SEATS  # a table's seats with their players, in order, for one table's answers


def prefetch_seats_with_standing(game: Game, *, now=None) -> None:
    """One table's seats with their players, each person's rating in the game's key and the planned end of her
    vacation under way, in one query (a move and its answer, decision 16): table_summary reads neither again."""
    now = now or timezone.now()
    seats = (
        Seat.objects.select_related("user")
        .order_by("index")
        .annotate(vacation_ends_at=vacation.away_annotation(now), **hooks.seat_annotations.merged(game=game))
    )
    prefetch_related_objects([game], Prefetch("seats", queryset=seats))
    hooks.seats_annotated(game=game)  # ratings keeps what it annotated (games.hooks)
    game._away_until = {s.user_id: s.vacation_ends_at for s in game.seats.all() if s.vacation_ends_at is not None}


def _away(game: Game, seats: list[Seat], now) -> dict:
    """Players of `game` on vacation now (vacation.away_until), unless read with its seats already."""
    if hasattr(game, "_away_until"):
        return game._away_until
    return vacation.away_until([s.user_id for s in seats], now=now)


def _time_bank_left(seat: Seat, now) -> int:
    """The seat's time bank in seconds as it stands now, counting down while it is drawn on (ruling S4)."""
    if seat.bank_drawn_from is None:
        return seat.bank_seconds
    return int(max(seat.bank_seconds - max((now - seat.bank_drawn_from).total_seconds(), 0), 0))


def seat_summary(seat: Seat, game: Game, away: dict | None = None, now=None) -> dict:
    """One seat as anyone at the table sees it; `away`: players on vacation and its planned end (ruling S4)."""
    now = now or timezone.now()
    away = away or {}
    running = game.is_running
    on_vacation = running and not seat.abandoned and seat.user_id in away
    # Her vacation stops her clock here: the deadline stored is not the one she will have (games.selectors.vacation).
    stopped = on_vacation and vacation.stops_clocks_at(game)
    data = {
        "index": seat.index,
        "name": seat.name,  # the player's, or the bot's in the reader's language ("Strong 2", decision 26)
        "player": seat.user.username if seat.user_id else None,
        "bot_level": seat.bot_level or None,
        "is_bot": seat.is_bot,
        "bot_account": bool(seat.user_id and seat.user.is_bot_account),  # a person's account played by a program
        "abandoned": seat.abandoned,
        "to_act": game.status == Game.Status.RUNNING and seat.index in game.to_act,
        "deadline": seat.deadline.isoformat() if seat.deadline and running and not stopped else None,
        "missed_deadlines": seat.missed_deadlines,
        "on_vacation_until": away[seat.user_id].isoformat() if on_vacation else None,
        "clock_stopped": bool(stopped),
        "time_bank_seconds": _time_bank_left(seat, now) if game.time_bank_days else None,
        "drawing_time_bank": bool(game.time_bank_days and running and seat.bank_drawn_from is not None),
    }
    if game.status == Game.Status.FINISHED:
        data.update(rank=seat.rank, score=seat.score)  # the site's rank (ruling S1), never the engine's alone
    return data


def _left(game: Game, seat: int | None) -> bool:
    return seat is not None and any(s.index == seat and s.abandoned for s in game.seats.all())


def table_summary(game: Game, user=None, *, away: dict | None = None, now=None) -> dict:
    """`away` (players on vacation, vacation.away_until) may be looked up once for a whole list."""
    seat = seat_of(game, user)
    now = now or timezone.now()
    seats = list(game.seats.all())
    if not game.is_running:
        away = {}
    elif away is None:
        away = _away(game, seats, now)
    # What later apps show beside each seat (games.hooks): ruling S5, her rating in this game's key ("rating").
    badges = hooks.seat_badges.merged(game=game)
    rows = [
        {**seat_summary(s, game, away, now), **{field: per_seat.get(s.index) for field, per_seat in badges.items()}}
        for s in seats
    ]
    # A seat that left decides nothing more, even while the bot plays its turn (ruling S1).
    my_turn = game.status == Game.Status.RUNNING and seat in game.to_act and not _left(game, seat)
    # Her deadline as her seat shows it: none while her vacation stops the clock (ruling S4).
    due = next((s.deadline for s, row in zip(seats, rows) if s.index == seat and row["deadline"]), None)
    due = due if my_turn else None
    return {
        "id": game.pk,
        "game": game.kind,
        "title": game_title(get_game(game.kind).title),
        "players": game.players,
        "options": game.options,
        "pace": game.pace,
        "turn_seconds": game.turn_seconds,
        "private": game.private,
        "rated": game.rated,  # ruling S5
        "auto_start": game.auto_start,  # decision 17: deals itself when its last seat is taken
        "status": game.status,
        "version": game.version,
        "created_by": game.created_by.username,
        "created_at": game.created_at.isoformat(),
        "time_bank_days": game.time_bank_days,
        "seats": rows,
        "free_seats": game.players - len(game.seats.all()),
        "my_seat": seat,
        "my_turn": my_turn,
        "my_deadline": due.isoformat() if due else None,
        "my_seconds_left": max(int((due - now).total_seconds()), 0) if due else None,
        "winners": _winners(game) if game.status == Game.Status.FINISHED else None,
        "aborted": aborted_summary(game, seats) if game.status == Game.Status.ABORTED else None,
    }


def aborted_summary(game: Game, seats: list[Seat] | None = None) -> dict:
    """Why an aborted game has no result (games.services.aborting; ruling S1, turn 3), as data and in words."""
    seats = list(game.seats.all()) if seats is None else seats
    left = next((s for s in seats if s.index == game.abort_seat), None)
    player = left.name if left is not None else None
    return {
        "reason": game.abort_reason or None,
        "seat": game.abort_seat,
        "player": player,
        "words": aborted_words(game.abort_reason, player),
    }


def table_summaries(games, user=None) -> list[dict]:
    """table_summary of each game, with the seated players' ratings and vacations looked up in one query each."""
    games = list(games)
    hooks.seats_prefetch(games=games)  # the ratings beside the names, in one query
    now = timezone.now()
    away = vacation.away_until([s.user_id for g in games if g.is_running for s in g.seats.all()], now=now)
    return [table_summary(g, user, away=away, now=now) for g in games]


def _winners(game: Game) -> list[int]:
    """The seats at rank 1 that did not leave; none when everyone left (games.ranking)."""
    seats = list(game.seats.all())
    return winners({s.index: s.rank for s in seats}, [s.index for s in seats if s.abandoned])


def _with_site_ranks(view: dict, game: Game) -> dict:
    """The view's final results carry the site's rank (ruling S1), the game's own kept as `game_rank`."""
    if not isinstance(view, dict) or not view.get("results"):
        return view
    ranks = {s.index: s.rank for s in game.seats.all()}
    results = [{**r, "game_rank": r["rank"], "rank": ranks.get(r["seat"]) or r["rank"]} for r in view["results"]]
    return {**view, "results": results}


def table_detail(
    game: Game, user=None, *, state=None, spectators: bool = True, written: WrittenLine | None = None
) -> dict:
    """The table and the game as `user` sees it, with her legal actions.

    `state`: the game's state already in hand (a move's answer, decision 16), so it is not decoded again.
    `written`: the log line her move just wrote, with what it did to the others (WrittenLine, score_breakdown).
    `spectators=False`: the page's answer to a move does not show the count (games/_move_answer.html), so it is
    not read; the key is then absent.
    """
    data = table_summary(game, user)
    seat = data["my_seat"]
    if game.state is not None:
        state = state or load_state(game)
        data["view"] = state.view(seat)
        if game.status == Game.Status.FINISHED:
            data["view"] = _with_site_ranks(data["view"], game)
        deciding = seat is not None and game.is_running and not _left(game, seat)
        data["legal_actions"] = legal_actions_for(game, seat, state) if deciding else []
        data["undoable"] = bool(deciding and state.undoable(seat))
        if deciding:  # her next question is likely about this very position (decision 28)
            legal_keep(game, seat, data["legal_actions"], data["undoable"])
    else:
        data["view"], data["legal_actions"], data["undoable"] = None, [], False
    # The commitment to the seed is public from the start, the seed once over (ruling G0.2, engine.commitment).
    data["seed_salt"], data["seed_commitment"] = game.seed_salt, game.seed_commitment
    if game.status == Game.Status.FINISHED:
        data["seed"] = game.seed  # published once over, so anyone can re-run the log (ruling G0.2)
        data["result"] = result_summary(game)  # which rule broke each tie, as codes and words
    if user is not None and seat == 0 and game.private:
        data["invite_code"] = game.invite_code
    if game.is_running:
        data["abort"] = abort_standing(game, seat)
    if spectators:
        data["spectators"] = spectator_count(game)  # decision 17: viewers of its page who do not sit at it
    _bot_thinking(game, data["seats"])
    breakdown = score_breakdown(game, user, data["view"], written=written) if game.state is not None else None
    if breakdown is not None:
        data["score_breakdown"] = breakdown
    return data


# Decision 28: each process keeps the fold of the settled log lines of the games it answered last (a few hundred
# bytes each), named by the game's id and its seed commitment (public, drawn at its start): a database made again
# (the embedded site's file deleted) numbers its games from 1 again.  A process that has none folds from the start.
KEPT_BREAKDOWNS = 1024
_kept_breakdowns: OrderedDict[tuple[int, str], dict] = OrderedDict()
_kept_lock = threading.Lock()  # the ASGI server answers from threads


def _kept_breakdown(game: Game, fresh) -> tuple[tuple[int, str], dict]:
    key = (game.pk, game.seed_commitment or "")
    with _kept_lock:
        kept = _kept_breakdowns.get(key)
        if kept is None or kept["upto"] > (game.turn_version or 0):  # none, or kept from a later read than this one
            return key, {"upto": 0, "acc": fresh}
        _kept_breakdowns.move_to_end(key)
        return key, kept


def _keep_breakdown(key: tuple[int, str], kept: dict) -> None:
    """Kept folds are never changed in place (each request folds a copy), so a reader may hold one meanwhile."""
    with _kept_lock:
        _kept_breakdowns[key] = kept
        _kept_breakdowns.move_to_end(key)
        while len(_kept_breakdowns) > KEPT_BREAKDOWNS:
            _kept_breakdowns.popitem(last=False)


def score_breakdown(game: Game, user, view, *, written: WrittenLine | None = None) -> dict | None:
    """Where each seat's score came from (decision 26), for a game whose presenters say it
    (`boards/<game>/breakdown.py`: `fold_start(players)`, `fold(acc, rows)`, `score_breakdown(acc, view)`, and
    `fold_copy(acc)` if it has a cheaper copy than a deep one), from the
    log lines `user` may read, decisions taken back left out; None for a game that has none.

    Decision 28: the log is not read whole on every move.  The lines up to the version at which the turn in
    progress began are settled, the same for every reader (a turn is its player's alone only until she confirms
    it, ruling S3, and then it is public or taken back for good); the process keeps their fold with the version
    it reaches, so a request reads only the lines after that and folds the settled ones among them into the kept
    part.  Without one it folds from the start (the same result).

    It keeps too the last reader's lines after the settled ones (her turn in progress), with the version they
    were read at: every write to a game's lines is a move, which changes its version, so at the same version they
    are still hers (a page polled again), and at the next one they are hers with `written` after them, the line her
    move just logged, when it changed no other line (a decision of her turn still unconfirmed, or any decision of
    a game that never holds one) or only made her own turn's lines public (her confirmation).  Then nothing is read.
    """
    module = game_module(game.kind, "breakdown")
    if module is None:
        return None
    settled = game.turn_version or 0
    key, kept = _kept_breakdown(game, module.fold_start(game.players))
    seat = seat_of(game, user)
    rows = _tail_lines(kept, game, seat, written)
    if rows is None:
        rows = _breakdown_lines(game, user, after=kept["upto"])
    settling = [r for r in rows if r[0] <= settled]
    if any(visibility != Action.Visibility.PUBLIC for _, visibility, _, _ in settling):
        # Not settled after all (a game whose turns overlap): this reader's fold, from the whole log, kept nowhere.
        acc = module.fold(module.fold_start(game.players), _log_lines(action_log_rows(game, user)))
        return module.score_breakdown(acc, view)
    # The kept fold is shared and never changed in place: each fold starts from a copy (the game's own `fold_copy`,
    # cheaper than a deep copy, when its presenters give one).
    copied = getattr(module, "fold_copy", copy.deepcopy)
    if settling:
        kept = {"upto": settled, "acc": module.fold(copied(kept["acc"]), [r[2:] for r in settling])}
    tail = [r for r in rows if r[0] > settled]
    if game.is_running:
        # Only the lines up to the version the game was read at: one written since (a move committed between the
        # game's read and its lines') is not of that version, for this reader or any other.
        kept_lines = [r for r in tail if r[0] <= game.version]
        _keep_breakdown(key, {**kept, "tail": (seat, game.version, kept_lines)})
    elif settling:
        _keep_breakdown(key, {"upto": kept["upto"], "acc": kept["acc"]})
    acc = module.fold(copied(kept["acc"]), [r[2:] for r in tail])
    return module.score_breakdown(acc, view)


class WrittenLine(NamedTuple):
    """The log line a move just wrote (games.services.action_submit), for its answer's breakdown to read with the
    mover's lines kept (score_breakdown), when it changed no other line or only made her own turn's public."""

    seq: int
    visibility: str
    seat: int
    entry: list
    hers_public: bool  # her confirmation made her turn's lines, the only private ones, public (ruling S3)


def _tail_lines(kept: dict, game: Game, seat: int | None, written: WrittenLine | None) -> list[tuple] | None:
    """The lines after the kept fold that the reader at `seat` may read, from what the process kept of them
    (score_breakdown), or None if they must be read."""
    tail = kept.get("tail")
    if tail is None or not game.is_running:
        return None
    reader, version, lines = tail
    if reader != seat and version != kept["upto"]:  # at the kept fold's own version no line follows, for anyone
        return None
    if written is None:
        return lines if version == game.version else None
    if version != written.seq - 1 or written.seq != game.version:
        return None
    if written.hers_public:
        public = Action.Visibility.PUBLIC.value
        lines = [(seq, public, line_seat, entry) for seq, _, line_seat, entry in lines]
    return [*lines, (written.seq, Action.Visibility(written.visibility).value, written.seat, written.entry)]


def _breakdown_lines(game: Game, user, *, after: int) -> list[tuple]:
    """(seq, visibility, seat, entry) of the log lines after `after` that `user` may read, withdrawn ones left out,
    in log order: action_log_rows(game, user, after=after) without its withdrawn lines, as values, in one statement
    written once (decision 28: building the ORM's query cost a move more than reading its few lines).  The same
    visibility as action_log_rows (ruling S3): while the game is not over, the public lines and her own seat's;
    once over, all.  tests/games/test_score_breakdown_kept.py holds them to the same rows."""
    seat = seat_of(game, user)
    over = game.status in (Game.Status.FINISHED, Game.Status.ABORTED)
    sql, params = _breakdown_sql(over, seat is not None)
    params = {"game": game.pk, "after": after, "seat": seat, **params}
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    entry = Action._meta.get_field("entry")
    steps = _converters(entry)
    lines = []
    for seq, visibility, line_seat, value in rows:
        for converter, expression in steps:
            value = converter(value, expression, connection)
        lines.append((seq, visibility, line_seat, value))
    return lines


@cache
def _converters(field) -> list:
    """The backend's and the field's converters of a column read by a plain statement, as the ORM applies them."""
    expression = field.get_col(field.model._meta.db_table)
    found = connection.ops.get_db_converters(expression) + expression.get_db_converters(connection)
    return [(converter, expression) for converter in found]


@cache
def _breakdown_sql(over: bool, seated: bool) -> tuple[str, dict]:
    q = connection.ops.quote_name
    column = {name: q(Action._meta.get_field(name).column) for name in ("game", "seq", "visibility", "seat", "entry")}
    readable = ""
    if not over:
        own = f" OR {column['seat']} = %(seat)s" if seated else ""
        readable = f" AND ({column['visibility']} = %(public)s{own})"
    sql = (
        f"SELECT {column['seq']}, {column['visibility']}, {column['seat']}, {column['entry']} "
        f"FROM {q(Action._meta.db_table)} WHERE {column['game']} = %(game)s AND {column['seq']} > %(after)s "
        f"AND {column['visibility']} <> %(withdrawn)s{readable} ORDER BY {column['seq']}"
    )
    return sql, {"public": Action.Visibility.PUBLIC.value, "withdrawn": Action.Visibility.WITHDRAWN.value}


def _log_lines(rows):
    return rows.exclude(visibility=Action.Visibility.WITHDRAWN).order_by("seq").values_list("seat", "entry")


def _bot_thinking(game: Game, rows: list[dict]) -> None:
    """Decision 26: the bot whose turn it is says since when it thinks (`thinking_since`, the moment its turn began: the
    last decision of another seat, or the start), so the page can say "Strong 2 is thinking… 4 s".  Only when it
    alone decides: where several seats decide at once (live Toppo) each bot reacts rather than thinks."""
    if not game.is_running or len(game.to_act) != 1:
        return
    row = next((r for r in rows if r["index"] == game.to_act[0]), None)
    if row is None or not row["is_bot"]:  # a seat that left keeps her name; "ana is thinking" would not be true
        return
    last = (
        Action.objects.filter(game=game)
        .exclude(seat=row["index"])
        .order_by("-seq")
        .values_list("created_at", flat=True)
        .first()
    )
    since = max(t for t in (last, game.started_at) if t is not None) if (last or game.started_at) else None
    row["thinking_since"] = since.isoformat() if since else None


def persons_playing(game: Game) -> list[Seat]:
    """The seats of people still in the game: not bots, not those who resigned or abandoned."""
    return [s for s in game.seats.all() if s.user_id is not None and not s.abandoned]


def may_abort_alone(game: Game, persons: list[Seat]) -> bool:
    """One person among bots and nothing logged yet, not even a bot's move: a new deal wrongs nobody."""
    return len(persons) == 1 and not game.actions.exists()


def abort_standing(game: Game, seat: int | None) -> dict:
    """Who must agree to abort this running game, who has at this version, and whether `seat` may abort alone
    (games.services.aborting)."""
    persons = persons_playing(game)
    agreed = [s.index for s in persons if s.abort_agreed_version == game.version]
    playing = seat in [s.index for s in persons]
    return {
        "players": [s.index for s in persons],
        "agreed": agreed,
        "i_agreed": seat in agreed,
        "alone": playing and may_abort_alone(game, persons),
        "by_agreement": playing and len(persons) > 1,
    }


# A person's own decisions: hers, or her forced ones the site played by her option (decision 29).
OWN_SOURCES = ("player", "auto")


def first_turns_pending(game: Game, *, before_seq: int | None = None) -> set[int]:
    """The seats that have not yet completed a turn of their own (ruling S1, turn 3): while any has not, a seat that
    resigns or abandons aborts the game instead of losing it.  `before_seq`: as the log stood before that row
    (the correction of games that ended before the ruling, games.services.aborting).

    Own is a person's decision (source "player") or a bot seat's (source "bot"); the site's bot playing a missed
    deadline ("timeout") plays the turn for her, and a turn it finished is not hers (engine.ranking).
    """
    bots = {s.index for s in game.seats.all() if s.user_id is None}
    rows = Action.objects.filter(game=game).order_by("seq")
    if before_seq is not None:
        rows = rows.filter(seq__lt=before_seq)
    log = (
        (seat, action, source in OWN_SOURCES or (source == Action.Source.BOT and seat in bots))
        for seat, action, source in _log_in_pages(rows)
    )
    return replayed_first_turns_pending(game.kind, game.players, game.options, game.seed, log)


def _log_in_pages(rows, size: int = 200):
    """(seat, action, source) of the log rows, read a page at a time: the replay above usually stops within the
    first round, so a long game's log is not read whole."""
    after = 0
    while True:
        page = list(rows.filter(seq__gt=after).values_list("seq", "seat", "action", "source")[:size])
        yield from (row[1:] for row in page)
        if len(page) < size:
            return
        after = page[-1][0]


def tables_public():
    """Every table listed for all (not private), in any state, unordered."""
    return Game.objects.filter(private=False).select_related("created_by").prefetch_related(_SEATS)


def tables_of_user(*, user, finished: bool | None = None):
    # A semi-join on her seats, not a join made DISTINCT: no sort of whole rows to drop duplicates (an ordering by
    # urgency, tables_of_user_by_urgency, has to sort them all).
    seated = Seat.objects.filter(user=user).values("game_id")
    qs = Game.objects.filter(pk__in=seated).select_related("created_by").prefetch_related(_SEATS)
    if finished is True:
        qs = qs.filter(status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
    elif finished is False:
        qs = qs.filter(status__in=[Game.Status.OPEN, Game.Status.RUNNING])
    return qs


# Where is my turn: how urgently a table of hers needs her (the `urgency` of tables_of_user_by_urgency).
MY_TURN, THEIR_TURN, NOT_STARTED, OVER = 0, 1, 2, 3
# The `due` of a table where no clock of hers runs (not her turn, or her vacation stops it): after every real
# deadline, so that no ordering key is ever null and a cursor can hold them all (games.api.pagination).
NO_DEADLINE = datetime(9999, 1, 1, tzinfo=UTC)
URGENCY_ORDER = ("urgency", "due", "-id")


def tables_of_user_by_urgency(*, user, finished: bool | None = None, now=None):
    """Her tables, the most urgent first: those waiting for her, the soonest deadline first and then those whose
    clock her vacation stops (they cannot run out while she is away); then running ones waiting for others; then
    open ones; then finished and aborted ones; newest first among equals.  Ordered in SQL by URGENCY_ORDER, so
    the API pages it by cursor (games.api.pagination.UrgencyPages).

    Her turn is read from her seat's deadline: a seat has one exactly while it is one to decide at a running
    table (games.services.clock), and a seat that left decides nothing (ruling S1), so no JSON is searched."""
    now = now or timezone.now()
    deadline = Seat.objects.filter(game=OuterRef("pk"), user=user, abandoned=False, deadline__isnull=False)
    mine = Q(status=Game.Status.RUNNING, my_deadline__isnull=False)
    urgency = Case(
        When(mine, then=Value(MY_TURN)),
        When(status=Game.Status.RUNNING, then=Value(THEIR_TURN)),
        When(status=Game.Status.OPEN, then=Value(NOT_STARTED)),
        default=Value(OVER),
        output_field=IntegerField(),
    )
    running = mine & ~vacation.stopped_for_q(user, now)
    due = Case(When(running, then=F("my_deadline")), default=Value(NO_DEADLINE), output_field=DateTimeField())
    return (
        tables_of_user(user=user, finished=finished)
        .annotate(my_deadline=Subquery(deadline.order_by().values("deadline")[:1]))
        .annotate(urgency=urgency, due=due)
        .order_by(*URGENCY_ORDER)
    )


def games_of_user_sorted(*, user) -> list[Game]:
    """My running and open games, the most urgent first (tables_of_user_by_urgency)."""
    return list(tables_of_user_by_urgency(user=user, finished=False))


def action_log(game: Game, user=None, *, after: int = 0) -> list[dict]:
    """The log as `user` may read it: descriptions for all, the raw action to its author or once over.

    While the game runs, the lines of a turn not yet confirmed, and of decisions taken back,
    are shown to their seat only (ruling S3, amended; see games.services.log_visibility).
    """
    return action_log_entries(game, action_log_rows(game, user, after=after).order_by("seq"), user)


def action_log_latest(game: Game, user=None, *, lines: int) -> tuple[list[dict], int]:
    """The last `lines` lines of the log as `user` may read it, newest first, and how many she may read in all:
    what a page shows, read and worded without the rest of a long game's log, in one query (decision 16)."""
    qs = action_log_rows(game, user)
    rows = list(qs.annotate(lines_in_all=Subquery(_count_of(qs))).order_by("-seq")[:lines])
    return action_log_entries(game, rows, user), rows[0].lines_in_all if rows else 0


def _count_of(rows):
    """How many `rows` there are, as a subquery (one row: the rows are all of one game)."""
    return rows.order_by().values("game").annotate(n=Count("pk")).values("n")


def action_log_since(game: Game, user, *, seen: int, lines: int) -> tuple[list[dict], int | None]:
    """The lines after seq `seen` that `user` may read (at most `lines`, newest first), and how many she may read
    up to `seen`, in one query: a page that has the log up to `seen` checks it still holds every line it should
    (a turn confirmed since then shows lines older than the newest she saw, ruling S3) before it is only sent
    the new ones (decision 16).  None as the count when nothing is new (and then nothing changed below either:
    whatever reveals or hides a line logs a line of its own)."""
    qs = action_log_rows(game, user)
    rows = list(
        qs.filter(seq__gt=seen)
        .annotate(seen_before=Subquery(_count_of(qs.filter(seq__lte=seen))))
        .order_by("-seq")[:lines]
    )
    return action_log_entries(game, rows, user), (rows[0].seen_before or 0) if rows else None


def action_log_rows(game: Game, user=None, *, after: int = 0):
    """The log rows `user` may read, unordered (the API pages them, games.api.pagination)."""
    seat = seat_of(game, user)
    qs = Action.objects.filter(game=game, seq__gt=after)
    if game.status not in (Game.Status.FINISHED, Game.Status.ABORTED):
        public = Q(visibility=Action.Visibility.PUBLIC)
        qs = qs.filter(public if seat is None else public | Q(seat=seat))
    return qs


def action_log_entries(game: Game, actions, user=None) -> list[dict]:
    """Log rows (from action_log_rows) as `user` reads them."""
    seat = seat_of(game, user)
    over = game.status in (Game.Status.FINISHED, Game.Status.ABORTED)
    names = seat_names(game)
    rows = []
    for a in actions:
        # A seat leaving is a site entry (ruling S1): public, worded for the reader, and not for the engine
        # ("replay": false), which never saw it.
        leave = is_leave(a.action)
        # The entry is the engine's data; the description says it in the reader's language (decision 13).
        row = {
            "seq": a.seq,
            "seat": a.seat,
            "source": a.source,
            "replay": not leave,
            "entry": a.entry,
            "description": (
                leave_words(a.action["type"], name_of(names, a.seat))
                if leave
                else entry_words(game.kind, a.entry, names)
            ),
            "created_at": a.created_at.isoformat(),
        }
        if over or a.seat == seat or leave:
            row["action"] = a.action
        rows.append(row)
    return rows


def visible_q(user) -> Q:
    """The condition on Game rows for the tables a user may look at: public ones and those she sits at or is
    invited to.  Subqueries rather than joins, so it can be combined with other joins on seats."""
    if user is None or not user.is_authenticated:
        return Q(private=False)
    return (
        Q(private=False)
        | Q(pk__in=Seat.objects.filter(user=user).values("game_id"))
        | Q(pk__in=Invitation.objects.filter(user=user).values("game_id"))
    )


def legal_game(user, pk: int) -> Game | None:
    """The table `pk` if `user` (signed in) may see it, with only what her legal actions need, in one query (decision
    16): its state and version, her first seat (`my_seat`, None for a spectator) and whether that seat left
    (`my_seat_left`); no players, ratings or creator (deferred, as a queryset's `only` leaves them).

    Written out once (_legal_sql) rather than built by the ORM each time: building and compiling the query cost
    more than running it, and a raw queryset's own machinery three times reading the row (decision 28); each value
    goes through the converters the ORM's would.  It asks what visible_q asks (tests/games/test_legal_game.py holds
    them to it)."""
    with connection.cursor() as cursor:
        cursor.execute(_legal_sql(), {"game": pk, "user": user.pk})
        row = cursor.fetchone()
    if row is None:
        return None
    fields = _legal_fields()
    values = list(row[: len(fields)])
    for place, field in enumerate(fields):
        for converter, expression in _converters(field):
            values[place] = converter(values[place], expression, connection)
    game = Game.from_db(connection.alias, [field.attname for field in fields], values)
    game.my_seat, game.my_seat_left = row[len(fields)], row[len(fields) + 1]
    return game


@cache
def _legal_fields() -> list:
    """The Game columns the legal actions read, in the model's order (as Model.from_db takes them)."""
    wanted = {"id", "kind", "state", "status", "version", "to_act"}
    return [field for field in Game._meta.concrete_fields if field.attname in wanted]


@cache
def _legal_sql() -> str:
    game, seat, invitation = (connection.ops.quote_name(m._meta.db_table) for m in (Game, Seat, Invitation))
    q = connection.ops.quote_name
    mine = f"FROM {seat} s WHERE s.{q('game_id')} = g.{q('id')} AND s.{q('user_id')} = %(user)s"
    columns = ", ".join(f"g.{q(field.column)}" for field in _legal_fields())
    return (
        f"SELECT {columns}, "
        f"(SELECT s.{q('index')} {mine} ORDER BY s.{q('index')} LIMIT 1) AS my_seat, "
        f"(SELECT s.{q('abandoned')} {mine} ORDER BY s.{q('index')} LIMIT 1) AS my_seat_left "
        f"FROM {game} g WHERE g.{q('id')} = %(game)s AND (NOT g.{q('private')} OR EXISTS (SELECT 1 {mine}) "
        f"OR EXISTS (SELECT 1 FROM {invitation} i "
        f"WHERE i.{q('game_id')} = g.{q('id')} AND i.{q('user_id')} = %(user)s))"
    )


def legal_actions_of(game: Game, seat: int | None, *, left: bool) -> dict:
    """Her legal actions now and what they need (version, seat, whether it is her turn), for her seat already known
    (`left`: the seat left the game, ruling S1): no view, no summary."""
    deciding = seat is not None and game.is_running and game.state is not None and not left
    actions, undoable = [], False
    if deciding:
        # Listed for this very position by the move that made it, or by the last question (decision 28).
        kept = legal_kept(game, seat)
        if kept is None:
            state = load_state(game)
            actions, undoable = legal_actions_for(game, seat, state), bool(state.undoable(seat))
            legal_keep(game, seat, actions, undoable)
        else:
            actions, undoable = kept
    return {
        "version": game.version,
        "seat": seat,
        "my_turn": deciding and seat in game.to_act,
        "undoable": undoable,
        "actions": actions,
    }


def visible_games(user):
    """Tables a user may look at: public ones and those she sits at or is invited to."""
    return Game.objects.filter(visible_q(user))


def table_stamp(game: Game) -> str:
    """What changes whenever a table's page would: the version plus the last change to the table (joins, bots).
    The table page's poller compares it (games.views.common.stamp) and the table's stream announces it (feed)."""
    return f"{game.version}.{int(game.updated_at.timestamp() * 1000)}"

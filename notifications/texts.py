"""The words of each notification, in the reader's language and time zone (decision 13: store the data, not the words).

A notification stores a code and its parameters (`Notification.params`: ids, usernames, the game's kind
and number, seat indexes, scores, hours, a deadline, the bot's log entries as data), built by the
`*_params` functions below when the event happens.  `notification_words(notification)` makes its sentence
when it is shown or sent, in the language active then: the request's on the pages and the API, the
recipient's (`accounts.personal.her_words`) in an email.  Notifications stored before keep their words
in `Notification.text` (empty params): those are shown as they were written.

Everything here is built from public facts (the table, who sits where, the public log
line of a move, final results) or from the recipient's own seat, never from the game
state, so a notification cannot leak a hidden card or crate (ruling G0.3).
"""

from __future__ import annotations

from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.names import shown_name
from accounts.personal import local_time
from engine.core import InvalidOptions, get_game
from games.engine_texts import game_title
from games.log_words import bot_name, entry_words
from games.models import Game, Seat
from games.ranking import aborted_words

from .table_rows import state_read


def table_path(game_id: int) -> str:
    """The table's page on this site."""
    try:
        return reverse("table", args=[game_id])
    except NoReverseMatch:
        return f"/tables/{game_id}/"


def table_url(game_id: int) -> str:
    """The table's page as a full address, for emails."""
    return settings.SITE_URL + table_path(game_id)


def game_label(game: Game) -> str:
    """E.g. 'Topology #12'."""
    try:
        title = game_title(get_game(game.kind).title)
    except InvalidOptions:
        title = game.kind
    return f"{title} #{game.pk}"


def when(moment) -> str:
    """A moment in the reader's time zone (her request's, or `her_words` in an email), named by its IANA name:
    "2026-11-28 14:15 (Asia/Taipei)", as the pages and the API show it (accounts.personal.local_time)."""
    return local_time(moment)


def points(score) -> str:
    if score is None:
        return "-"
    return str(int(score)) if float(score).is_integer() else f"{score:.1f}"


def _game(game: Game) -> dict:
    return {"id": game.pk, "kind": game.kind}


def _label(data: dict) -> str:
    """'Topology #12', in the reader's language, from the stored kind and number."""
    try:
        title = game_title(get_game(data.get("kind", "")).title)
    except InvalidOptions:
        title = data.get("kind", "")
    return f"{title} #{data.get('id')}"


def _seat(seat: Seat) -> dict:
    return {
        "index": seat.index,
        "user": seat.user.username if seat.user_id is not None else None,
        "bot": seat.bot_level if seat.user_id is None else None,
    }


def _name(data: dict) -> str:
    """A stored seat's name as the reader reads it: the player's, or the bot's level in her language."""
    if data.get("user"):
        return shown_name(data["user"])  # a deleted account's as "deleted player N" (ruling S8)
    return bot_name(data.get("bot"), data.get("index"))


def _moment(value):
    return parse_datetime(value) if value else None


# --- what is stored, when the event happens ---------------------------------------------------------


def started_params(game: Game, seats: list[Seat]) -> dict:
    return {"code": "started", "game": _game(game), "seats": [_seat(s) for s in seats]}


def your_turn_params(game: Game, seat: Seat) -> dict:
    return {
        "code": "your_turn",
        "game": _game(game),
        "seat": seat.index,
        "deadline": seat.deadline.isoformat() if seat.deadline is not None else None,
        "label": turn_label_of(game, seat),  # decision 29: forced, quick or deep, from her seat's view only
    }


def turn_label_of(game: Game, seat: Seat) -> str | None:
    """The decision's label (games.selectors.turn_labels); None if it cannot be read (a notice is never lost for it)."""
    from games.selectors.turn_labels import turn_label

    def loaded():
        # The dispatch reads the game without its state: read and loaded once for all the turns it tells, and
        # only if a label is not cached already (the move's own page may have asked for it).
        if not hasattr(game, "_label_state"):
            stored = state_read(game.pk, game.version) if "state" in game.get_deferred_fields() else game.state
            if stored is None:
                raise LookupError("the game moved on since it was read")  # no label for a position gone by
            game._label_state = get_game(game.kind).load(stored)
        return game._label_state

    ahead = getattr(game, "_labels_ahead", {})  # read before the dispatch's transaction, at this version
    if seat.index in ahead:
        return ahead[seat.index]
    try:
        return turn_label(game, seat.index, loader=loaded)["label"]
    except Exception:  # noqa: BLE001 - the label is a courtesy: the turn is told without it
        return None


def time_left_words(deadline, now=None) -> str:
    """What is left until `deadline`, in the largest whole unit: "2 days", "5 hours", "12 minutes"."""
    from django.utils import timezone

    seconds = max(int((deadline - (now or timezone.now())).total_seconds()), 0)
    if seconds >= 86400:
        n = seconds // 86400
        return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}
    if seconds >= 3600:
        n = seconds // 3600
        return ngettext("%(n)d hour", "%(n)d hours", n) % {"n": n}
    n = seconds // 60
    return ngettext("%(n)d minute", "%(n)d minutes", n) % {"n": n}


def turn_headline(game_data: dict, label: str | None, deadline) -> str:
    """ "Topology #12: forced, 2 days left" (decision 29), in the reader's language."""
    from games.selectors.turn_labels import label_words

    if label and deadline is not None:
        return _("%(game)s: %(label)s, %(left)s left") % {
            "game": _label(game_data),
            "label": label_words(label),
            "left": time_left_words(deadline),
        }
    if label:
        return _("%(game)s: %(label)s") % {"game": _label(game_data), "label": label_words(label)}
    return _label(game_data)


def invited_params(game: Game, inviter) -> dict:
    return {"code": "invited", "game": _game(game), "inviter": inviter.username}


def answered_params(game: Game, invitation, *, accepted: bool, started: bool, closed: bool, yours: bool) -> dict:
    """An answer to an invitation (ruling S6); `yours`: told to the one who invited, else to another at the table."""
    return {
        "code": "answered",
        "game": _game(game),
        "invitee": invitation.user.username,
        "inviter": invitation.invited_by.username,
        "accepted": accepted,
        "started": started,
        "closed": closed,
        "yours": yours,
    }


def vacation_params(away, vacation, event: str, games: list[Game]) -> dict:
    """An opponent's vacation started (with its planned end) or ended; the tables the reader shares with her."""
    return {
        "code": "vacation",
        "event": event,
        "user": away.username,
        "until": vacation.ends_at.isoformat() if event == "started" else None,
        "games": [_game(g) for g in games],
    }


def tournament_tables(games: list[Game], seats_of_hers: dict[int, int]) -> list[dict]:
    """Her tables in a tournament's start notice: each, and whether she moves first there."""
    return [{**_game(g), "your_turn": seats_of_hers.get(g.pk) in (g.to_act or [])} for g in games]


def deadline_near_params(game: Game, seat: Seat, hours: int) -> dict:
    return {
        "code": "deadline",
        "game": _game(game),
        "seat": seat.index,
        "hours": hours,
        "deadline": seat.deadline.isoformat(),
    }


def bot_played_params(game: Game, seats: list[Seat], entries: list[list[dict]], missed_in_a_row: int) -> dict:
    # The bot's moves are kept as their log entries (data, games.log_words), worded when read.
    return {
        "code": "bot_played",
        "game": _game(game),
        "seats": [_seat(s) for s in seats],
        "entries": entries,
        "in_a_row": missed_in_a_row,
    }


def finished_params(game: Game, seats: list[Seat], seat: Seat) -> dict:
    # Only public results (rank, score, abandoned) and her own seat: nothing hidden (ruling G0.3).
    return {
        "code": "finished",
        "game": _game(game),
        "players": game.players,
        "seat": seat.index,
        "abandoned": seat.abandoned,
        "seats": [{**_seat(s), "rank": s.rank, "score": s.score} for s in seats],
    }


def aborted_params(game: Game, seats: list[Seat], seat: Seat) -> dict:
    # Why, and who left (ruling S1, turn 3): public facts only.
    left = next((s for s in seats if s.index == game.abort_seat), None)
    return {
        "code": "aborted",
        "game": _game(game),
        "seat": seat.index,
        "reason": game.abort_reason,
        "left": _seat(left) if left is not None else None,
    }


# --- the words, when it is shown or sent -------------------------------------------------------------


def _started_words(p: dict) -> str:
    players = ", ".join(_name(s) for s in p["seats"])
    return _("The table %(game)s has started. Players: %(players)s.") % {"game": _label(p["game"]), "players": players}


def _your_turn_words(p: dict) -> str:
    deadline = _moment(p.get("deadline"))
    if p.get("label"):
        text = turn_headline(p["game"], p["label"], deadline) + ". "
        text += _("It is your turn at %(game)s.") % {"game": _label(p["game"])}
    else:
        text = _("It is your turn at %(game)s.") % {"game": _label(p["game"])}
    if deadline is not None:
        text += " " + _("Play before %(deadline)s.") % {"deadline": when(deadline)}
    return text


def _invited_words(p: dict) -> str:
    return _("%(inviter)s invited you to a table of %(game)s.") % {"inviter": p["inviter"], "game": _label(p["game"])}


def _deadline_words(p: dict) -> str:
    hours = p["hours"]
    left = ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    return _(
        "Your deadline at %(game)s is in less than %(left)s: play before %(deadline)s, or the site's bot "
        "plays the turn for you."
    ) % {"game": _label(p["game"]), "left": left, "deadline": when(_moment(p["deadline"]))}


def _bot_played_words(p: dict) -> str:
    names = {s["index"]: _name(s) for s in p["seats"]}
    descriptions = [entry_words(p["game"]["kind"], entry, names) for entry in p["entries"]]
    text = _("You missed your deadline at %(game)s, so the site's bot played for you: %(moves)s") % {
        "game": _label(p["game"]),
        "moves": " ".join(d for d in descriptions if d),
    }
    missed_in_a_row = p["in_a_row"]
    if missed_in_a_row >= 3:
        text += " " + _(
            "That was the third missed deadline in a row: the bot now plays your seat to the end "
            "of the game, and the game counts as a loss for you."
        )
    else:
        text += " " + ngettext(
            "You have missed %(n)d deadline in a row; after three the bot takes over your seat for good.",
            "You have missed %(n)d deadlines in a row; after three the bot takes over your seat for good.",
            missed_in_a_row,
        ) % {"n": missed_in_a_row}
    return text


def _finished_words(p: dict) -> str:
    # A game that ended early (a resignation, ruling S1) has no scores: then no points are mentioned.
    seats = p["seats"]
    ranking = ", ".join(
        f"{s['rank'] or '-'}. {_name(s)}" + (f" ({points(s['score'])})" if s["score"] is not None else "")
        for s in sorted(seats, key=lambda s: (s["rank"] or 99, s["index"]))
    )
    mine = next((s for s in seats if s["index"] == p["seat"]), {"rank": None, "score": None})
    facts = {
        "game": _label(p["game"]),
        "rank": mine["rank"] or "-",
        "players": p["players"],
        "score": points(mine["score"]),
    }
    if mine["score"] is None:
        text = _("Game over at %(game)s: you placed %(rank)s of %(players)d.") % facts
    else:
        text = _("Game over at %(game)s: you placed %(rank)s of %(players)d with %(score)s points.") % facts
    text += " " + _("Final ranking: %(ranking)s.") % {"ranking": ranking}
    if p.get("abandoned"):
        text += " " + _("Your seat was abandoned, so the game counts as a loss for you.")
    return text


def _answered_words(p: dict) -> str:
    facts = {"invitee": p["invitee"], "inviter": p["inviter"], "game": _label(p["game"])}
    if p.get("accepted"):
        if p.get("started"):
            return _("%(invitee)s accepted your invitation to %(game)s, and the table has started.") % facts
        return _("%(invitee)s accepted your invitation to %(game)s.") % facts
    if not p.get("yours"):
        return _("%(invitee)s declined %(inviter)s's invitation to %(game)s, so the table is closed.") % facts
    if p.get("closed"):
        return _("%(invitee)s declined your invitation to %(game)s, so the table is closed.") % facts
    return _("%(invitee)s declined your invitation to %(game)s.") % facts


def _vacation_words(p: dict) -> str:
    facts = {"user": p["user"], "games": ", ".join(_label(g) for g in p.get("games") or [])}
    if p["event"] == "started":
        facts["until"] = when(_moment(p["until"]))
        return _("%(user)s is on vacation until %(until)s. Your tables with %(user)s: %(games)s.") % facts
    return _("%(user)s is back from vacation. Your tables with %(user)s: %(games)s.") % facts


def _tables_words(tables: list[dict]) -> str:
    """A tournament's tables of hers, saying where she moves first."""
    listed = [_label(t) + (" " + _("(your turn)") if t.get("your_turn") else "") for t in tables]
    return " " + _("Your tables: %(tables)s.") % {"tables": ", ".join(listed)}


def _aborted_words(p: dict) -> str:
    left = p.get("left")
    why = aborted_words(p.get("reason") or "", _name(left) if left else None)
    return _("%(game)s: %(why)s") % {"game": _label(p["game"]), "why": why}


def _chat_words(p: dict) -> str:
    if p.get("spectator"):
        pattern = _("%(author)s (spectator) wrote at %(table)s: “%(excerpt)s”")
    else:
        pattern = _("%(author)s wrote at %(table)s: “%(excerpt)s”")
    return pattern % {"author": p["author"], "table": _label(p["game"]), "excerpt": p["excerpt"]}


def _tournament_url(p: dict) -> str:
    try:
        path = reverse("tournament", args=[p["tournament"]])
    except NoReverseMatch:
        path = f"/tournaments/{p['tournament']}/"
    return settings.SITE_URL + path


def _tournament_words(p: dict) -> str:
    facts = {"name": p["name"], "n": p.get("n") or 0, "url": _tournament_url(p), "winner": p.get("winner") or ""}
    event = p["event"]
    if event == "started":
        text = (
            ngettext(
                "The tournament “%(name)s” has started: you play %(n)d game, already dealt. %(url)s",
                "The tournament “%(name)s” has started: you play %(n)d games, all already dealt. %(url)s",
                facts["n"],
            )
            % facts
        )
        return text + (_tables_words(p["tables"]) if p.get("tables") else "")
    if event == "cancelled_by_organiser":
        return _("The tournament “%(name)s” was cancelled by its organiser. %(url)s") % facts
    if event == "cancelled":
        return (
            ngettext(
                "The tournament “%(name)s” was cancelled: it needed at least %(n)d entrant. %(url)s",
                "The tournament “%(name)s” was cancelled: it needed at least %(n)d entrants. %(url)s",
                facts["n"],
            )
            % facts
        )
    if event == "finished_without_winner":
        return _("The tournament “%(name)s” is over, without a winner: no game was played to its end. %(url)s") % facts
    return _("The tournament “%(name)s” is over. Winner: %(winner)s. %(url)s") % facts


WORDS = {
    "started": _started_words,
    "your_turn": _your_turn_words,
    "invited": _invited_words,
    "deadline": _deadline_words,
    "bot_played": _bot_played_words,
    "finished": _finished_words,
    "aborted": _aborted_words,
    "chat": _chat_words,
    "tournament": _tournament_words,
    "answered": _answered_words,
    "vacation": _vacation_words,
}


def notification_words(notification) -> str:
    """Its sentence in the active language; a notification stored before params existed keeps its words."""
    params = notification.params or {}
    words = WORDS.get(params.get("code", ""))
    if words is None:
        return notification.text
    return words(params)

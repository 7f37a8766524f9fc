"""The words of each notification, in the reader's language and time zone.

Callers make each text inside `accounts.personal.her_words(recipient)`: notifications are made in
the worker, where no request says whose language to speak.

Everything here is built from public facts (the table, who sits where, the public log
line of a move, final results) or from the recipient's own seat, never from the game
state, so a notification cannot leak a hidden card or crate (ruling G0.3).
"""
from __future__ import annotations

from django.conf import settings
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.core import InvalidOptions, get_game

from ..engine_texts import game_title
from ..log_words import entry_words, seat_names
from ..models import Game, Seat


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


def seat_name(seat: Seat) -> str:
    if seat.user_id is None:
        return _("Bot (%(level)s)") % {"level": seat.bot_level}
    return seat.user.username


def when(moment) -> str:
    """A deadline in the reader's time zone (the caller's `her_words`), named, so an email is never ambiguous."""
    local = timezone.localtime(moment)
    return f"{local:%Y-%m-%d %H:%M} ({timezone.get_current_timezone_name()})"


def points(score) -> str:
    if score is None:
        return "-"
    return str(int(score)) if float(score).is_integer() else f"{score:.1f}"


def started(game: Game, seats: list[Seat]) -> str:
    players = ", ".join(seat_name(s) for s in seats)
    return _("The table %(game)s has started. Players: %(players)s.") % {"game": game_label(game), "players": players}


def your_turn(game: Game, seat: Seat) -> str:
    text = _("It is your turn at %(game)s.") % {"game": game_label(game)}
    if seat.deadline is not None:
        text += " " + _("Play before %(deadline)s.") % {"deadline": when(seat.deadline)}
    return text


def invited(game: Game, inviter) -> str:
    return _("%(inviter)s invited you to a table of %(game)s.") % {"inviter": inviter.username,
                                                                    "game": game_label(game)}


def deadline_near(game: Game, seat: Seat, hours: int) -> str:
    left = ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    return _("Your deadline at %(game)s is in less than %(left)s: play before %(deadline)s, or the site's bot "
             "plays the turn for you.") % {"game": game_label(game), "left": left, "deadline": when(seat.deadline)}


def bot_played(game: Game, entries: list[list[dict]], missed_in_a_row: int) -> str:
    names = seat_names(game)  # the bot's moves from their log entries, worded in the reader's language (issue 13)
    descriptions = [entry_words(game.kind, entry, names) for entry in entries]
    text = _("You missed your deadline at %(game)s, so the site's bot played for you: %(moves)s") % {
        "game": game_label(game), "moves": " ".join(d for d in descriptions if d)}
    if missed_in_a_row >= 3:
        text += " " + _("That was the third missed deadline in a row: the bot now plays your seat to the end "
                        "of the game, and the game counts as a loss for you.")
    else:
        text += " " + ngettext(
            "You have missed %(n)d deadline in a row; after three the bot takes over your seat for good.",
            "You have missed %(n)d deadlines in a row; after three the bot takes over your seat for good.",
            missed_in_a_row) % {"n": missed_in_a_row}
    return text


def finished(game: Game, seats: list[Seat], seat: Seat) -> str:
    # A game that ended early (a resignation, ruling S1) has no scores: then no points are mentioned.
    ranking = ", ".join(f"{s.rank or '-'}. {seat_name(s)}" + (f" ({points(s.score)})" if s.score is not None else "")
                        for s in sorted(seats, key=lambda s: (s.rank or 99, s.index)))
    facts = {"game": game_label(game), "rank": seat.rank or "-", "players": game.players, "score": points(seat.score)}
    if seat.score is None:
        text = _("Game over at %(game)s: you placed %(rank)s of %(players)d.") % facts
    else:
        text = _("Game over at %(game)s: you placed %(rank)s of %(players)d with %(score)s points.") % facts
    text += " " + _("Final ranking: %(ranking)s.") % {"ranking": ranking}
    if seat.abandoned:
        text += " " + _("Your seat was abandoned, so the game counts as a loss for you.")
    return text

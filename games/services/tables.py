"""Opening, filling and starting tables."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import limits
from engine.bots import levels as bot_levels
from engine.commitment import commit, new_salt
from engine.core import InvalidOptions, all_games, get_game

from ..engine_texts import game_title
from ..errors import BadRequest, Conflict, Forbidden, NotFound, TooManyRequests
from ..models import CORRESPONDENCE_DAYS, LIVE_SECONDS, TIME_BANK_MAX_DAYS, Game, Invitation, Pace, Seat
from ..options_words import options_refusal
from . import effects
from .blocks import refuse_if_blocked
from .clock import restart_clocks
from .table_access import game_lock_for

User = get_user_model()


# The checks a table's settings pass, whoever asks for the table: a person here, a tournament for each of its
# tables (tournaments.services checks them at its creation, before any table exists).


def engine_for(kind: str):
    """The engine of the game `kind`; BadRequest naming the games there are if there is none."""
    if kind not in all_games():
        raise BadRequest(
            _("There is no game called %(kind)s; choose one of %(games)s.")
            % {"kind": repr(kind), "games": ", ".join(sorted(all_games()))},
            field="kind",
        )
    return get_game(kind)


def options_for(engine, players: int, options: dict | None, pace: str) -> dict:
    """The table's options as the engine plays them at `pace`, or BadRequest saying which one it refuses."""
    options = engine.options_at_pace(options, str(pace))
    try:
        return engine.validate_options(players, options)
    except InvalidOptions as exc:
        raise BadRequest(**options_refusal(exc)) from None


def check_correspondence_clock(turn_seconds) -> None:
    if turn_seconds not in [d * 86400 for d in CORRESPONDENCE_DAYS]:
        raise BadRequest(
            _("A correspondence clock is one of %(values)s days.")
            % {"values": ", ".join(map(str, CORRESPONDENCE_DAYS))},
            field="turn_seconds",
        )


def check_time_bank_days(days) -> None:
    """Ruling S4: a whole number of days per seat, 0 for none."""
    if isinstance(days, bool) or not isinstance(days, int) or not 0 <= days <= TIME_BANK_MAX_DAYS:
        raise BadRequest(
            _("A time bank is a whole number of days from 0 (none) to %(max)d.") % {"max": TIME_BANK_MAX_DAYS},
            field="time_bank_days",
        )


def _check_pace(engine, pace: str, turn_seconds: int) -> None:
    if pace not in Pace.values:
        raise BadRequest(
            _("Pace must be 'live' or 'correspondence', not %(pace)s.") % {"pace": repr(pace)}, field="pace"
        )
    if pace not in engine.paces:
        raise BadRequest(
            _("%(game)s is not played at a live pace; choose a correspondence pace for it.")
            % {"game": game_title(engine.title)},
            field="pace",
        )
    if pace == Pace.LIVE:
        if turn_seconds not in LIVE_SECONDS:
            raise BadRequest(
                _("A live clock is one of %(values)s seconds.") % {"values": ", ".join(map(str, LIVE_SECONDS))},
                field="turn_seconds",
            )
    else:
        check_correspondence_clock(turn_seconds)


def _check_time_bank(pace: str, days) -> int:
    """A time bank only by correspondence (a live clock is seconds)."""
    check_time_bank_days(days)
    if days and pace == Pace.LIVE:
        raise BadRequest(_("A time bank is for correspondence tables; a live table has none."), field="time_bank_days")
    return days


def _check_bot_level(level: str) -> None:
    if level not in bot_levels():
        raise BadRequest(
            _("Unknown bot level %(level)s; choose one of %(levels)s.")
            % {"level": repr(level), "levels": ", ".join(bot_levels())},
            field="bots",
        )


@transaction.atomic
def game_create(
    *,
    user,
    kind: str,
    players: int,
    options: dict | None = None,
    pace: str = Pace.CORRESPONDENCE,
    turn_seconds: int | None = None,
    private: bool = False,
    bots: list[str] | None = None,
    time_bank_days: int = 0,
    rated: bool = True,
    auto_start: bool = False,
    for_invited: bool = False,
) -> Game:
    """Open a table with the creator in seat 0 and, if asked, bots in the next seats.

    `auto_start` (decision 17): the table deals itself when a later join, accepted invitation or bot takes its last
    seat.  The web form and the API ask for it by default; callers that start their tables themselves (scripts,
    tests, tournaments) leave it off.  A table full at its creation (every other seat a bot) with `auto_start` deals
    itself at once (decision 26); without it, it waits for its creator's start.

    `for_invited`: a challenge's or a rematch's table, opened for the people it invites; a decline closes it.
    `time_bank_days`: each seat's time bank by correspondence (ruling S4), 0 for none.
    Ruling S5: a table of people is rated unless `rated` is false; a table with a bot never is (nor one of
    a single player, who has nobody to be rated against).
    """
    engine = engine_for(kind)
    if turn_seconds is None:
        turn_seconds = 60 if pace == Pace.LIVE else 3 * 86400
    _check_pace(engine, pace, turn_seconds)
    time_bank_days = _check_time_bank(pace, time_bank_days)
    options = options_for(engine, players, options, pace)
    bots = list(bots or [])
    if len(bots) > players - 1:
        raise BadRequest(
            _("At most %(bots)d bots fit at a table of %(players)d beside you.")
            % {"bots": players - 1, "players": players},
            field="bots",
        )
    for level in bots:
        _check_bot_level(level)
    game = Game.objects.create(
        kind=kind,
        players=players,
        options=options,
        pace=pace,
        turn_seconds=turn_seconds,
        private=private,
        created_by=user,
        time_bank_days=time_bank_days,
        rated=bool(rated) and not bots and players >= 2,
        auto_start=bool(auto_start),
        for_invited=bool(for_invited),
    )
    Seat.objects.create(game=game, index=0, user=user)
    for index, level in enumerate(bots, start=1):
        Seat.objects.create(game=game, index=index, bot_level=level)
    return _start_if_full(game, by=user)  # decision 26: every seat taken by bots at creation


def _free_index(game: Game) -> int:
    taken = set(game.seats.values_list("index", flat=True))
    free = [i for i in range(game.players) if i not in taken]
    if not free:
        raise Conflict(_("This table is full."))
    return free[0]


@transaction.atomic
def game_join(*, user, game_id: int, invite_code: str = "", entered_together: bool = False) -> Game:
    """Take a free seat.  `entered_together`: a tournament seats its entrants, who all chose to play in it, so a
    block between two of them does not keep them apart there (ruling S7); nobody else passes it."""
    # A private table takes those invited or with its code; to anyone else it does not exist (404).
    game = game_lock_for(user, game_id, invite_code=invite_code)
    if not game.is_open:
        raise Conflict(_("This table has already started or is closed; it takes no more players."))
    if game.seats.filter(user=user).exists():
        raise Conflict(_("You already sit at this table."))
    if not entered_together:  # ruling S7: never seated with someone she blocked or who blocked her
        seated = game.seats.filter(user__isnull=False).values_list("user_id", flat=True)
        refuse_if_blocked(user, seated, _("It is not possible for you to join this table."))
    try:
        with transaction.atomic():
            Seat.objects.create(game=game, index=_free_index(game), user=user)
    except IntegrityError:
        raise Conflict(_("Someone took that seat a moment ago; try again.")) from None
    game.save(update_fields=["updated_at"])
    effects.table_touched(game.pk)
    game = _start_if_full(game, by=user)
    invitation = game.invitations.select_related("user", "invited_by").filter(user=user).first()
    if invitation is not None:  # she was invited: her join accepts (ruling S6), after the start it may have made
        invitation.game = game
        effects.after_answer(invitation, accepted=True)
    return game


def _start_if_full(game: Game, *, by) -> Game:
    """Decision 17: a table with `auto_start` deals itself, in the same transaction, once its last seat is taken
    (`by` took it: her own click started the game)."""
    if game.auto_start and game.is_open and game.seats.count() >= game.players:
        return _deal(game, by=by)
    return game


@transaction.atomic
def game_leave(*, user, game_id: int) -> Game:
    game = game_lock_for(user, game_id)
    if not game.is_open:
        raise Conflict(_("The game has started: resign instead of leaving."))
    seat = game.seats.filter(user=user).first()
    if seat is None:
        raise Forbidden(_("You do not sit at this table."))
    if seat.index == 0:
        raise Conflict(_("You opened this table: abort it instead of leaving."))
    seat.delete()
    game.save(update_fields=["updated_at"])
    effects.table_touched(game.pk)
    return game


@transaction.atomic
def game_add_bot(*, user, game_id: int, level: str) -> Game:
    game = game_lock_for(user, game_id)
    if game.created_by_id != user.pk:
        raise Forbidden(_("Only the player who opened the table can seat bots."))
    if not game.is_open:
        raise Conflict(_("The game has started; no seat is free."))
    _check_bot_level(level)
    Seat.objects.create(game=game, index=_free_index(game), bot_level=level)
    game.rated = False  # ruling S5: a table with a bot is never rated
    game.save(update_fields=["rated", "updated_at"])
    effects.table_touched(game.pk)
    return _start_if_full(game, by=user)


@transaction.atomic
def game_invite(*, user, game_id: int, username: str, client_address: str = "") -> Invitation:
    """Invite a player by name; a new invitation tells her (and may email her), so new ones are limited
    per inviter, per client address (the view's; none from a shell) and per invited player."""
    game = game_lock_for(user, game_id)
    if not game.seats.filter(user=user).exists():
        raise Forbidden(_("Only players at this table can invite others."))
    if not game.is_open:
        raise Conflict(_("The game has started; nobody can join it now."))
    # A deactivated account (the admin's "deactivate", decision 17) is invited by nobody.
    invitee = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if invitee is None:
        raise NotFound(_("There is no player called %(name)s.") % {"name": repr(username)})
    if game.seats.filter(user=invitee).exists():
        raise Conflict(_("%(name)s already sits at this table.") % {"name": invitee.username})
    # Ruling S7: nobody invites someone who has a block with anyone at the table (the inviter among them); the
    # same words whoever blocked whom.  A rematch invites through here, so a rematch between them is refused too.
    refuse_if_blocked(
        invitee,
        game.seats.filter(user__isnull=False).values_list("user_id", flat=True),
        _("It is not possible to invite %(name)s.") % {"name": invitee.username},
        field="username",
    )
    if not game.invitations.filter(user=invitee).exists():
        # Counted in this transaction: an invitation that is not made is not counted.
        granted = limits.take(
            [("invite-sender", str(user.pk)), ("invite-address", client_address), ("invite-recipient", str(invitee.pk))]
        )
        if isinstance(granted, limits.Refusal):
            raise TooManyRequests(granted.message, retry_after=granted.retry_after)
    invitation, created = Invitation.objects.get_or_create(game=game, user=invitee, defaults={"invited_by": user})
    if created:
        effects.after_invitation(invitation)
    return invitation


@transaction.atomic
def game_start(*, user, game_id: int, fill_with_bots: str = "") -> Game:
    """Deal the game: every seat filled (optionally by bots), seed drawn and committed to, first clocks started."""
    game = game_lock_for(user, game_id)
    if game.created_by_id != user.pk:
        raise Forbidden(_("Only the player who opened the table can start it."))
    if not game.is_open:
        raise Conflict(_("This table has already started or is closed."))
    if fill_with_bots:
        _check_bot_level(fill_with_bots)
        while game.seats.count() < game.players:
            Seat.objects.create(game=game, index=_free_index(game), bot_level=fill_with_bots)
    if game.seats.count() < game.players:
        missing = game.players - game.seats.count()
        # The English text keeps "seat(s)" in both forms; other languages get their plural forms.
        raise Conflict(
            ngettext(
                "%(n)d seat(s) are still empty: wait for players or fill them with bots.",
                "%(n)d seat(s) are still empty: wait for players or fill them with bots.",
                missing,
            )
            % {"n": missing}
        )
    return _deal(game, by=user)


def _deal(game: Game, *, by) -> Game:
    """Start the locked, full, open `game`: by its creator (game_start) or by itself (`_start_if_full`).

    `by` is the person whose click dealt it: she is not told that it started (ruling S6), and is told of her
    turn like anyone else.  A tournament's tables are dealt by its organiser's account, and tell no start of their
    own: the tournament's notice lists them (tournaments.notify)."""
    if game.seats.filter(user__isnull=True).exists():
        game.rated = False  # ruling S5: a table with a bot is never rated
    engine = get_game(game.kind)
    game.seed = secrets.token_hex(16)
    game.seed_salt = new_salt()
    game.seed_commitment = commit(game.seed, game.seed_salt)  # published now, the seed at the end (ruling G0.2)
    state = engine.new_state(game.players, game.options, game.seed)
    now = timezone.now()
    game.state = state.to_json()
    game.status = Game.Status.RUNNING
    game.started_at = now
    game.started_by = by
    game.version = 0
    game.to_act = state.to_act()
    marker = state.turn_marker()
    game.turn_marker = "" if marker is None else str(marker)[:64]
    game.save()
    game.seats.update(bank_seconds=game.time_bank_days * 86400, bank_drawn_from=None)  # ruling S4
    restart_clocks(game, state, previous_to_act=[], now=now)
    effects.after_start(game)  # the invitations and answers its start makes moot are marked read (ruling S6)
    return game

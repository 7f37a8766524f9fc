"""Tables, their seats and the action log.

A game's position is kept twice on purpose: `state` is the snapshot that makes
reads cheap, and the seed plus the `Action` rows re-create any position (replay,
audit, tests).  `version` counts applied actions; clients send the version they saw.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from .state_json import StateDecoder, StateEncoder


class Pace(models.TextChoices):
    LIVE = "live", "Live"
    CORRESPONDENCE = "correspondence", "Correspondence"


# Ruling S1: correspondence deadlines are 1, 2, 3, 5, 7 or 14 days; live ones seconds or minutes.
CORRESPONDENCE_DAYS = (1, 2, 3, 5, 7, 14)
LIVE_SECONDS = (15, 30, 60, 120, 300, 600)
# Ruling S4: a correspondence table's time bank per seat, in whole days (0: none).
TIME_BANK_MAX_DAYS = 30


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    class AbortReason(models.TextChoices):
        """Why an aborted game ended with no result (games.services.aborting); blank: aborted before it was kept."""

        CLOSED = "closed", "Closed by its creator before it began"
        DECLINED = "declined", "Closed when the invited player declined (a challenge or rematch)"
        ALONE = "alone", "Aborted by its only person, among bots, before anything was played"
        AGREED = "agreed", "Every player still in it agreed"
        STAFF = "staff", "Aborted by the site's staff"
        RESIGNED = "resigned", "A seat resigned before every seat had played a turn (ruling S1)"
        ABANDONED = "abandoned", "A seat missed three deadlines before every seat had played a turn (ruling S1)"

    kind = models.CharField(max_length=20, help_text="Registry name of the game (engine.core.all_games()).")
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict, blank=True)
    pace = models.CharField(max_length=20, choices=Pace.choices, default=Pace.CORRESPONDENCE)
    turn_seconds = models.PositiveIntegerField(help_text="The clock of one turn (ruling S1).")
    time_bank_days = models.PositiveSmallIntegerField(
        default=0,
        help_text="Ruling S4: days each seat may draw on when a turn's clock runs out (0: none); "
        "correspondence only, and instead of vacation.",
    )
    private = models.BooleanField(default=False, help_text="Not listed; joined by invitation or code.")
    # Ruling S5: changes the players' ratings when it finishes (ratings.services).  games.services.game_create
    # makes a table of people rated unless asked not to; seating a bot makes it unrated for good.
    rated = models.BooleanField(default=False, help_text="Finishing changes the players' ratings (ruling S5).")
    # Decision 17: the table deals itself when a player, an accepted invitation or a bot takes its last seat
    # (games.services.tables), in that same transaction.
    auto_start = models.BooleanField(default=True, help_text="Starts by itself when its last seat is taken.")
    invite_code = models.CharField(max_length=16, unique=True, default="", blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games")
    # Ruling S6: the person whose own click dealt the game (Start, or the join, acceptance or bot that took the
    # last seat) sees it start and is told nothing of it; empty for tables dealt before it was recorded.
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="Whose own click dealt the game; nobody is told what she did herself.",
    )
    # A challenge or a rematch is a table opened for the people it invites: a decline closes it rather than
    # offering the seat to the lobby (games.services.invitations).
    for_invited = models.BooleanField(
        default=False, help_text="Opened for the players it invites (a challenge, a rematch): a decline closes it."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    seed = models.CharField(max_length=64, blank=True, help_text="Hidden until the game is over (ruling G0.2).")
    # Published from the start: SHA-256 of the salt and the seed (engine.commitment), so that once the seed is
    # published anyone can check it was fixed when the game began (ruling G0.2).
    seed_salt = models.CharField(max_length=64, blank=True, default="", help_text="Published from the start.")
    seed_commitment = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="SHA-256 of salt + seed, published from the start (ruling G0.2).",
    )
    # Decision 28: written and read by orjson, the same values (games.state_json).
    state = models.JSONField(null=True, blank=True, encoder=StateEncoder, decoder=StateDecoder)
    version = models.PositiveIntegerField(default=0)
    to_act = models.JSONField(default=list, blank=True, help_text="Seats whose decision it is.")
    turn_marker = models.CharField(max_length=64, blank=True, default="")
    turn_version = models.PositiveIntegerField(default=0, help_text="The version at which the current turn began.")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    abort_reason = models.CharField(max_length=10, choices=AbortReason.choices, blank=True, default="")
    abort_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat whose resigning or abandoning aborted the game (ruling S1)."
    )

    class Meta:
        ordering = ["-updated_at"]
        # The watch list (decision 17): running public games, latest activity first.
        indexes = [
            models.Index(
                fields=["-updated_at", "-id"], condition=Q(status="running", private=False), name="game_watchable"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk}"

    def save(self, *args, **kwargs):
        if not self.invite_code:
            self.invite_code = secrets.token_urlsafe(9)[:12]
        super().save(*args, **kwargs)

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def is_running(self) -> bool:
        return self.status == self.Status.RUNNING


class Seat(models.Model):
    """One place at a table: a person, or a bot at a named level."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    bot_level = models.CharField(max_length=20, blank=True, default="")
    joined_at = models.DateTimeField(auto_now_add=True)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    missed_deadlines = models.PositiveSmallIntegerField(default=0)
    abandoned = models.BooleanField(default=False, help_text="Three missed deadlines or resigned: a bot plays on.")
    # At most one pending bot task per seat (games.services.bots): its token, and when it is due.
    bot_task = models.CharField(max_length=32, blank=True, default="")
    bot_task_due = models.DateTimeField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    # Ruling S6: who is told what about her turns.  `turn_began` names the turn (the game version at which it
    # began, set with the deadline); `seen_at` is when she last had the table's page or stream open (written
    # throttled, feed.presence); `turn_mailed_at` is when her last "your turn" email (or digest
    # entry) here was queued.
    turn_began = models.PositiveIntegerField(
        null=True, blank=True, help_text="The game version at which her current turn began."
    )
    seen_at = models.DateTimeField(null=True, blank=True, help_text="She last had the table's page open then.")
    turn_mailed_at = models.DateTimeField(
        null=True, blank=True, help_text="Her last 'your turn' email at this table was queued then."
    )
    # Decision 14: a running game is aborted only when every person still playing agrees (games.services.aborting).
    # Her agreement is for the game as it stood at this version and lapses with the next action.
    abort_agreed_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="She agreed to abort the game at this version."
    )
    # Ruling S4: the seat's time bank (games.services.clock).  When a turn's deadline passes the whole bank is
    # added to it and `bank_drawn_from` remembers the deadline that passed; when the clock stops, what was used
    # since then is taken off the bank.
    bank_seconds = models.PositiveIntegerField(default=0, help_text="What is left of the seat's time bank.")
    bank_drawn_from = models.DateTimeField(
        null=True, blank=True, help_text="The deadline that passed, since when the bank is being drawn."
    )

    class Meta:
        ordering = ["game", "index"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_unique_index"),
            models.UniqueConstraint(fields=["game", "user"], condition=Q(user__isnull=False), name="seat_unique_user"),
            models.CheckConstraint(condition=Q(user__isnull=False) | ~Q(bot_level=""), name="seat_user_or_bot"),
        ]
        # A player's statistics (games.selectors.player_stats): her seats at finished games (those with a rank) and
        # their results, read from the index alone (key columns rather than INCLUDE, which SQLite lacks).
        indexes = [
            models.Index(
                fields=["user", "game", "rank", "abandoned"], condition=Q(rank__isnull=False), name="seat_user_results"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game} seat {self.index}"

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def played_by_bot(self) -> bool:
        """Bots, and abandoned seats that a bot plays to the end (ruling S1)."""
        return self.user_id is None or self.abandoned

    @property
    def name(self) -> str:
        if self.user_id is None:
            from .log_words import bot_name  # the words live with the log's (decision 26: "Strong 2")

            return bot_name(self.bot_level, self.index)
        from accounts.names import shown_name  # ruling S8: a deleted account is "deleted player N"

        return shown_name(self.user.username)


class PlayerGameStats(models.Model):
    """A player's results at one game, kept as games finish (decision 16): her page reads these rows, never her
    seats.  Written by `games.services.leaving.ranks_settle`, in the transaction that ends the game, with the
    same definitions as a count over her seats would use (`games.selectors.player_stats`): played, won (rank 1 and still
    playing at the end), left, and the sums the averages are made of.  An aborted game never gets here."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_stats")
    kind = models.CharField(max_length=20)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    left = models.PositiveIntegerField(default=0)
    rank_total = models.PositiveIntegerField(default=0, help_text="The sum of her ranks (average: / played).")
    seats_total = models.PositiveIntegerField(default=0, help_text="The sum of the seats at her tables.")
    last_finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="player_game_stats_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}: {self.played}"


class Vacation(models.Model):
    """A player's vacation (ruling S4): her correspondence clocks stop from `started_at` until it ends.

    `ends_at` is fixed at the start and never later than her allowance allows (games.selectors.vacation), so a
    vacation always ends by itself; `ended_at` is set when it has ended and her clocks were moved on by
    the time they stood still (games.services.vacation), early by her or at `ends_at` by the beat task.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="vacations")
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField(help_text="Planned end: the day she chose, or when her allowance runs out.")
    ended_at = models.DateTimeField(null=True, blank=True, help_text="Set once ended and her clocks moved on.")

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["user"], condition=Q(ended_at__isnull=True), name="vacation_one_at_a_time"),
            models.CheckConstraint(condition=Q(ends_at__gt=F("started_at")), name="vacation_ends_after_start"),
        ]
        indexes = [models.Index(fields=["ends_at"], condition=Q(ended_at__isnull=True), name="vacation_due")]

    def __str__(self) -> str:
        return f"vacation of {self.user_id} from {self.started_at:%Y-%m-%d %H:%M}"


class Action(models.Model):
    """One applied action: the log is complete, ordered and without gaps (unique seq per game)."""

    class Source(models.TextChoices):
        PLAYER = "player", "Player"
        BOT = "bot", "Bot"
        TIMEOUT = "timeout", "Missed deadline"
        # Decision 29: a forced decision (her only legal one) that the site played for her, by her own option
        # (User.auto_play_forced, games.services.auto_play).  Hers, like PLAYER, but told apart in the log.
        AUTO = "auto", "Played for her (forced)"

    class Visibility(models.TextChoices):
        """Who reads the row while the game runs (ruling S3, amended); everyone once it is over."""

        PUBLIC = "public", "Everyone"
        PRIVATE = "private", "Its seat, until she confirms her turn"
        WITHDRAWN = "withdrawn", "Its seat: taken back within the turn (or the taking back)"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(help_text="1, 2, 3 ... per game; equals the version after it.")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.PLAYER)
    action = models.JSONField()
    # The engine's log entry as data (decision 13): phrases {"code": ..., params}, worded for each reader by
    # games.log_words when shown or sent.  Empty for the site's leave entries, worded by games.ranking.
    entry = models.JSONField(default=list, blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    # A row the site's bot played at a missed deadline: the version at which that seat's missed turn began, which
    # names the deadline (ruling S1).  Two deadlines of one seat may follow each other with nothing in between
    # (a Toppo renew ending one round and starting the next, ruling P4): this tells them apart.
    missed_turn = models.PositiveIntegerField(
        null=True, blank=True, help_text="For a missed deadline's rows: the version at which the missed turn began."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="action_unique_seq")]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq}"


class Invitation(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="invitation_unique")]


class IdempotentRequest(models.Model):
    """The first answer to a request sent with an Idempotency-Key, replayed on retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64, help_text="Hash of method, path and body.")
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_unique_key")]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]  # the hourly purge


# =============================================================================
# The after-effects cursor (decision 5; games/services/effects.py).  Notifications
# themselves are models of their own app (notifications/models.py).
# =============================================================================


class GameEffects(models.Model):
    """How far a game's after-effects (notifications, bot moves) have been dispatched.

    The game row is its own outbox: every move commits the new `version` and `status`
    in the move's transaction, so nothing that must follow a committed move can be
    lost.  The dispatcher compares them with this cursor; the beat sweep re-runs it
    for any game left behind (broker down, process killed after the commit).
    """

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="effects")
    version = models.IntegerField(default=-1, help_text="-1: nothing dispatched yet (not even the start).")
    status = models.CharField(max_length=10, blank=True, default="")
    queued_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Without Redis: when a dispatch task was sent that has not started yet; moves meanwhile send "
        "none (tasks.game_effects). With Redis this mark is a key instead (games.services.effects_mark).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"effects of game {self.game_id} up to version {self.version}"


class PositionCheckpoint(models.Model):
    """A serialized position every `games.selectors.replay.EVERY` plies, so a replay costs one load and a few applies.

    Written lazily the first time a game is replayed past it; the log only grows, so a checkpoint
    stays true for good (a taken-back decision is itself a logged action, ruling S3).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="checkpoints")
    ply = models.PositiveIntegerField(help_text="Engine actions applied (0: the start).")
    seq = models.PositiveIntegerField(help_text="The seq of the log row that made this ply (0 at the start).")
    state = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "ply"], name="checkpoint_unique_ply")]

    def __str__(self) -> str:
        return f"{self.game} ply {self.ply}"


# =============================================================================
# Spectators (decision 17): who is watching a table without sitting at it.
# =============================================================================


class Spectator(models.Model):
    """One viewer of a table's page (a person or an anonymous browser) and when her page last asked.

    Written by the table page and its poller at most every half minute per viewer (games.services.spectators),
    never on the game's row; counted over the last TOPOS_SPECTATOR_SECONDS.  `viewer` is a keyed hash, never a
    session key or an address in clear.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="spectators")
    viewer = models.CharField(max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    seen_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "viewer"], name="spectator_unique_viewer")]
        indexes = [models.Index(fields=["game", "seen_at"], name="spectator_recent")]

    def __str__(self) -> str:
        return f"viewer of {self.game_id} at {self.seen_at:%H:%M:%S}"


# =============================================================================
# Pace profiles (decision 29, point 5): each person's reply times and reliability, read from the action log by
# games.selectors.pace and kept here so that her page and the lobby's filter read one row, never the log.
# =============================================================================


class PaceProfile(models.Model):
    """How fast and how reliably she plays, as of `computed_at` (games.selectors.pace.pace_profile_refresh).

    A reply is the time from the moment a turn of hers began (the log row that passed it to her, or the deal) to
    her first own decision in it; the medians are per pace.  `turns` counts her turns that ended (replied, or
    missed and played by the site's bot), `missed` those of them whose deadline passed (ruling S1).  `finished`
    counts her seats at games that ended with a result while she was still playing; `left` those she resigned or
    abandoned (ruling S1), aborted games included."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pace_profile")
    reply_median_correspondence = models.PositiveIntegerField(null=True, blank=True, help_text="Seconds.")
    reply_median_live = models.PositiveIntegerField(null=True, blank=True, help_text="Seconds.")
    replies_correspondence = models.PositiveIntegerField(default=0)
    replies_live = models.PositiveIntegerField(default=0)
    turns = models.PositiveIntegerField(default=0)
    missed = models.PositiveIntegerField(default=0)
    finished = models.PositiveIntegerField(default=0)
    left = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["reply_median_correspondence"], name="pace_reply_corr")]

    def __str__(self) -> str:
        return f"pace of {self.user_id}"

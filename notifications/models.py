"""What people are told, how it reaches them, and how each wants it: the notifications app's own models (decision 15).

The tables keep the names they had when these models belonged to games and accounts, so moving them moved no data.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class NotificationEvent(models.TextChoices):
    """The events a player is told about; in the site always, by email as she chooses."""

    YOUR_TURN = "your_turn", _("It is your turn")
    INVITED = "invited", _("You are invited to a table")
    STARTED = "started", _("A table you sit at has started")
    FINISHED = "finished", _("A game is over")
    DEADLINE = "deadline", _("A deadline is near (24 hours and 1 hour before)")
    BOT_PLAYED = "bot_played", _("The site's bot played for you after a missed deadline")
    CHAT = "chat", _("A chat message at a table you sit at")
    TOURNAMENT = "tournament", _("A tournament you entered started, was cancelled or ended")
    ANSWERED = "answered", _("Your invitation or challenge was accepted or declined")
    ABORTED = "aborted", _("A game you sit at was aborted")
    VACATION = "vacation", _("An opponent's vacation started or ended")


class NotificationPreference(models.Model):
    """How one person wants one kind of event by email; no row means the default (at once)."""

    class Email(models.TextChoices):
        IMMEDIATE = "immediate", _("Email at once")
        DIGEST = "digest", _("In the daily digest")
        NONE = "none", _("No email")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preferences"
    )
    event = models.CharField(max_length=20, choices=NotificationEvent.choices)
    email = models.CharField(max_length=10, choices=Email.choices, default=Email.IMMEDIATE)

    class Meta:
        db_table = "accounts_notificationpreference"  # its table since it was a model of accounts
        constraints = [models.UniqueConstraint(fields=["user", "event"], name="notification_preference_unique")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.event}: {self.email}"


class Notification(models.Model):
    """One event told to one person in the site; its words come from her view or public facts only.

    `params` holds the event as data (a code and its facts), worded when shown or sent in the reader's
    language (notifications.texts.notification_words, decision 13).  `text` holds the words of
    notifications stored before that; new ones leave it empty.
    """

    Kind = NotificationEvent

    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    key = models.CharField(max_length=160, help_text="Names the event, e.g. 'turn:12:0:v37'.")
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    text = models.TextField(blank=True, default="", help_text="The words of a notification stored before params.")
    params = models.JSONField(default=dict, blank=True, help_text="The event as data: a code and its facts.")
    read_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "games_notification"  # its table since it was a model of games (no data moved)
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["recipient", "key"], name="notification_unique_event")]
        indexes = [models.Index(fields=["recipient", "read_at"], name="notification_unread")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.recipient_id}: {self.key}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None


class NotificationDelivery(models.Model):
    """A notification sent (or to be sent) on one channel: at most once per event, channel and person."""

    class Channel(models.TextChoices):
        EMAIL = "email", "Email"
        DIGEST = "digest", "Daily digest"
        # Decision 29: the outbound app's channels (notifications.channels), under the same rules (ruling S6).
        PUSH = "push", "Web Push"
        WEBHOOK = "webhook", "Webhooks"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        SENDING = "sending", "Sending"
        SENT = "sent", "Sent"
        FAILED = "failed", "Failed"
        # Ruling S6: by the time it was due she had seen it (read it; for a turn, looked at the table or played
        # it, or the turn was over), so it was never sent.
        SEEN = "seen", "Seen first, not sent"

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="deliveries")
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=160, help_text="The notification's event key.")
    channel = models.CharField(max_length=10, choices=Channel.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    batch = models.CharField(max_length=32, blank=True, default="", help_text="The send that claimed it.")
    error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Ruling S6: not sent before then: a turn's grace (TOPOS_TURN_MAIL_GRACE_SECONDS), or the end of her quiet hours.
    not_before = models.DateTimeField(null=True, blank=True, help_text="Not to be sent before then.")

    class Meta:
        db_table = "games_notificationdelivery"
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["key", "channel", "recipient"], name="delivery_unique_per_channel"),
        ]
        indexes = [models.Index(fields=["channel", "status"], name="delivery_queue")]

    def __str__(self) -> str:
        return f"{self.channel} {self.status}: {self.key}"


class QuietHours(models.Model):
    """Ruling S6: a daily window, in her own time zone (User.time_zone), in which nothing is mailed to her.

    `start` to `end`, local clock times; a window may cross midnight (22:00 to 07:00).  What falls inside is
    mailed when it ends, unless she has seen it by then.  No row: no quiet hours.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="quiet_hours")
    start = models.TimeField(help_text="From this local time ...")
    end = models.TimeField(help_text="... to this one (the next day if it is earlier).")

    class Meta:
        constraints = [models.CheckConstraint(condition=~models.Q(start=models.F("end")), name="quiet_hours_not_empty")]

    def __str__(self) -> str:
        return f"{self.user_id} quiet {self.start:%H:%M}-{self.end:%H:%M}"

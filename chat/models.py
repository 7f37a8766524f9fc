"""Chat at every table (decision 17, point 1).  Written by chat/services.py, read through chat/selectors.py (who
sees what), told to the players by chat/effects.py in the worker.

The models were games' until the chat became an app of its own: their tables keep the names they had
(`db_table`), and the move was made in the migrations' state only (games 0027, chat 0001), so no row moved."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from games.models import Game


class ChatMessage(models.Model):
    """One message at a table.  A spectator's message is kept apart from the players' until the game is
    over (no coaching); a deleted one stays as a row (`deleted_at`) and is shown as "message deleted"."""

    BODY_MAX = 500

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    body = models.TextField(max_length=BODY_MAX)
    spectator = models.BooleanField(default=False, help_text="Written by someone not seated at the table.")
    created_at = models.DateTimeField(auto_now_add=True)
    deleted_at = models.DateTimeField(null=True, blank=True, help_text="Deleted by its author or a moderator.")
    # The outbox of the notifications and feed events about it (chat.effects): null until told.
    dispatched_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "games_chatmessage"  # made in games (its 0015); the move changed no table (decision 15)
        ordering = ["game", "id"]
        indexes = [
            models.Index(fields=["game", "id"], name="chat_table"),
            models.Index(fields=["author", "created_at"], name="chat_author_recent"),  # the rate limit
            models.Index(fields=["created_at"], condition=Q(dispatched_at__isnull=True), name="chat_undispatched"),
        ]

    def __str__(self) -> str:
        return f"chat #{self.pk} at {self.game_id} by {self.author_id}"


class ChatMute(models.Model):
    """She no longer sees `muted`'s messages, at any table (account-wide, as on Lichess)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_chatmute"  # made in games (its 0015); the move changed no table (decision 15)
        ordering = ["user", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_unique"),
            models.CheckConstraint(condition=~Q(user=F("muted")), name="chat_mute_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ChatReport(models.Model):
    """A message reported to the moderators (the Django admin), once per reporter."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abusive or hateful")
        SPAM = "spam", _("Spam or advertising")
        COACHING = "coaching", _("Helping a player during the game")
        OTHER = "other", _("Something else")

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_reports")
    reason = models.CharField(max_length=10, choices=Reason.choices, default=Reason.ABUSE)
    note = models.TextField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        db_table = "games_chatreport"  # made in games (its 0015); the move changed no table (decision 15)
        ordering = ["resolved", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]
        indexes = [models.Index(fields=["resolved", "created_at"], name="chat_report_queue")]

    def __str__(self) -> str:
        return f"report of chat #{self.message_id} by {self.reporter_id}"

"""Moderation in the Django admin (decision 17): tables with their seats and their log, read only; the "abort" action.

Every change goes through a service (games.services.aborting), so an abort here has the effects of any other.
Hidden information stays hidden here too: the state snapshot, the seed and the raw actions are not shown (a
moderator may play; ruling G0.3, and the seed only once over, ruling G0.2); the log's descriptions are.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .errors import ServiceError
from .log_words import entry_words, name_of, seat_names
from .models import Action, Game, Seat
from .ranking import is_leave, leave_words
from .services.aborting import game_abort_by_staff


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("index", "user", "bot_level", "abandoned", "missed_deadlines", "deadline", "rank", "score")
    readonly_fields = fields


class ActionInline(ReadOnlyInline):
    """The log as its lines read, in order (in the moderator's language, from each entry's data; decision 13)."""

    model = Action
    fields = ("seq", "seat", "user", "source", "line", "visibility", "created_at")
    readonly_fields = fields
    ordering = ("seq",)
    verbose_name = _("log line")
    verbose_name_plural = _("action log")

    @admin.display(description=_("what happened"))
    def line(self, action: Action) -> str:
        if not hasattr(self, "_names") or self._names[0] != action.game_id:
            self._names = (action.game_id, seat_names(action.game))  # once per game, not per line
        names = self._names[1]
        if is_leave(action.action):
            return leave_words(action.action["type"], name_of(names, action.seat))
        return entry_words(action.game.kind, action.entry, names)


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "kind",
        "players",
        "status",
        "pace",
        "rated",
        "private",
        "created_by",
        "created_at",
        "updated_at",
    )
    list_filter = ("status", "abort_reason", "kind", "pace", "rated", "private")
    search_fields = ("=id", "created_by__username", "seats__user__username")
    ordering = ("-id",)
    fields = (
        "kind",
        "players",
        "options",
        "pace",
        "turn_seconds",
        "time_bank_days",
        "private",
        "rated",
        "auto_start",
        "status",
        "version",
        "to_act",
        "created_by",
        "created_at",
        "started_at",
        "updated_at",
        "finished_at",
        "abort_reason",
        "abort_seat",
        "seed_commitment",
    )
    readonly_fields = fields
    inlines = [SeatInline, ActionInline]
    actions = ["abort"]

    def has_add_permission(self, request):
        return False  # tables are opened by players, through the services

    def has_delete_permission(self, request, obj=None):
        return False  # a game's log is kept; abort instead

    def get_search_results(self, request, queryset, search_term):
        queryset, duplicates = super().get_search_results(request, queryset, search_term)
        return queryset, True if search_term else duplicates  # the join on seats may repeat a game

    @admin.action(description=_("Abort the selected games (no result)"), permissions=["change"])
    def abort(self, request, queryset):
        aborted, refused = 0, []
        for game_id in queryset.values_list("pk", flat=True):
            try:
                game_abort_by_staff(user=request.user, game_id=game_id)
            except ServiceError as exc:
                refused.append(f"#{game_id}: {exc.message}")
            else:
                aborted += 1
        if aborted:
            self.message_user(
                request,
                ngettext("%(n)d game aborted.", "%(n)d games aborted.", aborted) % {"n": aborted},
                messages.SUCCESS,
            )
        for line in refused:
            self.message_user(request, line, messages.WARNING)

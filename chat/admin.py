"""The moderators' side of the chat (decision 17, point 1): reports, with the reported message, its author and a
link to the table, and the actions "delete message" and "resolve"; the messages themselves."""

from __future__ import annotations

from django.contrib import admin, messages
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import ChatMessage, ChatReport
from .services import chat_message_remove, chat_report_resolve


def _table_link(game_id: int):
    return format_html('<a href="{}">#{}</a>', reverse("table", args=[game_id]), game_id)


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = (
        "created_at",
        "reason",
        "message_body",
        "message_author",
        "table",
        "reporter",
        "message_deleted",
        "resolved",
    )
    list_filter = ("resolved", "reason")
    search_fields = ("message__body", "message__author__username", "reporter__username")
    list_select_related = ("message__author", "reporter")
    readonly_fields = (
        "message",
        "reporter",
        "reason",
        "note",
        "created_at",
        "message_body",
        "message_author",
        "table",
        "resolved_at",
        "resolved_by",
    )
    fields = (
        "message_body",
        "message_author",
        "table",
        "reporter",
        "reason",
        "note",
        "created_at",
        "resolved",
        "resolved_at",
        "resolved_by",
    )
    actions = ("delete_messages", "resolve")

    def has_add_permission(self, request):
        return False  # reports come from players

    @admin.display(description=_("message"))
    def message_body(self, report):
        return report.message.body  # escaped by the admin

    @admin.display(description=_("author"), ordering="message__author__username")
    def message_author(self, report):
        return report.message.author.username

    @admin.display(description=_("table"))
    def table(self, report):
        return _table_link(report.message.game_id)

    @admin.display(description=_("deleted"), boolean=True)
    def message_deleted(self, report):
        return report.message.deleted_at is not None

    @admin.action(description=_("Delete the reported messages (and resolve the reports)"))
    def delete_messages(self, request, queryset):
        deleted = 0
        for report in queryset.select_related("message"):
            deleted += chat_message_remove(message=report.message)
            chat_report_resolve(report=report, moderator=request.user)
        self.message_user(
            request,
            ngettext("%(n)d message deleted.", "%(n)d messages deleted.", deleted) % {"n": deleted},
            messages.SUCCESS,
        )

    @admin.action(description=_("Resolve the reports (keep the messages)"))
    def resolve(self, request, queryset):
        done = sum(chat_report_resolve(report=report, moderator=request.user) for report in queryset)
        self.message_user(
            request, ngettext("%(n)d report resolved.", "%(n)d reports resolved.", done) % {"n": done}, messages.SUCCESS
        )


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("created_at", "author", "table", "spectator", "body", "deleted_at")
    list_filter = ("spectator",)
    search_fields = ("body", "author__username")
    list_select_related = ("author",)
    readonly_fields = ("game", "author", "body", "spectator", "created_at", "deleted_at", "dispatched_at")
    actions = ("delete_messages",)

    def has_add_permission(self, request):
        return False  # messages are written at the tables

    @admin.display(description=_("table"))
    def table(self, message):
        return _table_link(message.game_id)

    @admin.action(description=_('Delete the messages (shown as "message deleted")'))
    def delete_messages(self, request, queryset):
        deleted = sum(chat_message_remove(message=m) for m in queryset)
        self.message_user(
            request,
            ngettext("%(n)d message deleted.", "%(n)d messages deleted.", deleted) % {"n": deleted},
            messages.SUCCESS,
        )

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import ApiToken, Block, User
from .services import user_deactivate


@admin.register(User)
class TopoUserAdmin(UserAdmin):
    """Django's user admin, with the moderators' "deactivate" (decision 17, accounts.services.user_deactivate)."""

    list_display = ("username", "email", "is_active", "is_bot_account", "is_staff", "date_joined", "last_login")
    list_filter = ("is_active", "is_bot_account", "is_staff", "is_superuser")
    actions = ["deactivate"]

    @admin.action(description=_("Deactivate the selected accounts (no login, tokens revoked)"), permissions=["change"])
    def deactivate(self, request, queryset):
        done = 0
        for user in queryset.exclude(pk=request.user.pk):  # a moderator does not lock herself out
            user_deactivate(user=user)
            done += 1
        self.message_user(
            request,
            ngettext("%(n)d account deactivated.", "%(n)d accounts deactivated.", done) % {"n": done},
            messages.SUCCESS,
        )


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("digest", "prefix")


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    """Ruling S7: who blocked whom, for the moderators (private to them: the blocked person is never told)."""

    list_display = ("blocker", "blocked", "created_at")
    raw_id_fields = ("blocker", "blocked")

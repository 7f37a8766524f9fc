from django.contrib import admin

from .models import Entrant, Tournament, TournamentTable


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    raw_id_fields = ["user"]


class TableInline(admin.TabularInline):
    model = TournamentTable
    extra = 0
    raw_id_fields = ["game"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "kind", "players", "status", "starts_at", "organiser", "winner"]
    list_filter = ["status", "kind"]
    search_fields = ["name"]
    raw_id_fields = ["organiser", "winner"]
    inlines = [EntrantInline, TableInline]

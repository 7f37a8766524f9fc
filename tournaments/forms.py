"""The create-tournament form: the create-table form's game, player count and options, plus the tournament's own
settings.  Only correspondence (all the tables are played side by side), no bots, never private."""

from __future__ import annotations

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.personal import zone_name
from games.forms import TableCreateForm

from .pairings import MAX_ENTRANTS

DROPPED = ("pace", "live_seconds", "private")


class TournamentCreateForm(TableCreateForm):
    name = forms.CharField(label=_("Name"), max_length=100)
    starts_at = forms.DateTimeField(
        label=_("Start (registration closes, the tables are dealt)"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    min_entrants = forms.IntegerField(
        label=_("Fewest entrants (fewer cancel it)"), min_value=2, max_value=MAX_ENTRANTS, initial=4
    )
    max_entrants = forms.IntegerField(label=_("Most entrants"), min_value=2, max_value=MAX_ENTRANTS, initial=8)
    double = forms.BooleanField(
        label=_("Double round robin (two players a table: every pair meets twice, once in each seat)"), required=False
    )
    join = forms.BooleanField(label=_("I play in it too"), required=False, initial=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in (*DROPPED, *self.bot_fields):
            self.fields.pop(name, None)
        self.bot_fields = []
        self.fields["players"].min_value = 2
        self.fields["players"].widget.attrs.update(min=2)
        self.fields["rated"].help_text = _("The results change the players' ratings.")
        # Named, as every time the site shows (accounts.personal.local_time): the form reads it in the same zone.
        self.fields["starts_at"].help_text = _("In your time zone, %(zone)s; at least 5 minutes from now.") % {
            "zone": zone_name()
        }
        if not self.is_bound:
            start = timezone.localtime() + timezone.timedelta(days=1)
            self.initial.setdefault("starts_at", start.replace(minute=0, second=0, microsecond=0))

    def clean(self):
        data = super().clean()
        data["pace"] = "correspondence"
        return data

    def service_kwargs(self) -> dict:
        table = super().service_kwargs()
        data = self.cleaned_data
        return {
            "name": data["name"],
            "kind": table["kind"],
            "players": table["players"],
            "options": table["options"],
            "turn_seconds": table["turn_seconds"],
            "time_bank_days": table["time_bank_days"],
            "rated": table["rated"],
            "double": data.get("double", False),
            "starts_at": data["starts_at"],
            "min_entrants": data["min_entrants"],
            "max_entrants": data["max_entrants"],
            "join": data.get("join", False),
        }

    def field_for_argument(self, argument: str) -> str | None:
        if argument in ("name", "starts_at", "min_entrants", "max_entrants"):
            return argument
        if argument == "turn_seconds":
            return "days"
        if argument == "options":
            return None
        return super().field_for_argument(argument)

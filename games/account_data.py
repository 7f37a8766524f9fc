"""What the games side adds to her data export and to the deletion of her account (ruling S8).

Registered from GamesConfig.ready into accounts.data_export (sections) and accounts.deletion (what stays, what
happens first, where her name is rewritten).  What stays when she is deleted, and why:

- her seats (`Seat.user`), her log rows (`Action.user`), the tables she opened (`Game.created_by`) and her tournament
  entries: her place in finished and running games stays (S8), so every finished game re-runs to its published
  result (`python -m engine.verify`, ruling G0.2), shown under the neutral name;
- tournaments she organised or won.

Her running games: she leaves each of them as by resigning (ruling S1): the site's bot plays her seat to the end
and the game counts as lost for her, or, before every seat has completed a turn of its own, the table is aborted
(S1, turn 3).  An open table she opened is closed; one she sits at she leaves.  Everything else linked to her is
deleted by accounts.deletion (notifications, queued emails, preferences, quiet hours, tokens, blocks, mutes,
vacations, ratings and rating changes, so she leaves the leaderboards, statistics, her pace profile, ...).
Her chat lines and mutes: chat/account_data.py.
"""

from __future__ import annotations

import json

from django.db.models import Q

from accounts.data_export import not_exported, section
from accounts.deletion import before_deletion, keep

from .models import Game, Seat, Vacation

for _link, _why in {
    "games.Seat.user": "Her place at every table stays (ruling S8), under the neutral name.",
    "games.Action.user": "The log is the game: it must re-run to the published result (ruling G0.2).",
    "games.Game.created_by": "The table stays; its creator is shown under the neutral name.",
    "tournaments.Entrant.user": "Her place in a tournament's standings stays, like her seats.",
    "tournaments.Tournament.organiser": "The tournament stays; its organiser is shown under the neutral name.",
    "tournaments.Tournament.winner": "The tournament's result stays, under the neutral name.",
}.items():
    keep(_link, _why)

not_exported("games.IdempotentRequest.user", "Answers kept a few hours to replay an API retry.")
not_exported("games.Spectator.user", "A count of a table's viewers over the last minute.")
not_exported("games.Game.started_by", "Who dealt a table: in the games section.")
not_exported("games.Invitation.invited_by", "Her invitations to others: in the games section.")


# --- the export's sections --------------------------------------------------------------------------


@section("games", covers=("games.Seat.user", "games.Action.user", "games.Game.created_by", "games.Invitation.user"))
def _games(user) -> list[dict]:
    """Each table she sits at, as her seat sees it: a finished game's whole export (ruling G0.2), else the table and
    the game from her seat's view, with the log as she may read it; nothing another seat hides (ruling G0.3)."""
    from .selectors import SEATS_WITH_PLAYERS, action_log, table_detail
    from .selectors.export import game_export

    out = []
    seated = Seat.objects.filter(user=user).values("game_id")
    for game in Game.objects.filter(pk__in=seated).select_related("created_by").prefetch_related(SEATS_WITH_PLAYERS):
        row = {"table": table_detail(game, user, spectators=False)}
        if game.status == Game.Status.FINISHED:
            row["export"] = game_export(game)
        else:
            row["log"] = action_log(game, user)
        out.append(row)
    return out


@section("vacations", covers=("games.Vacation.user",))
def _vacations(user) -> list[dict]:
    return [
        {
            "started_at": v.started_at.isoformat(),
            "ends_at": v.ends_at.isoformat(),
            "ended_at": v.ended_at.isoformat() if v.ended_at else None,
        }
        for v in Vacation.objects.filter(user=user).order_by("started_at")
    ]


@section("pace", covers=("games.PaceProfile.user",))
def _pace(user) -> dict:
    from .selectors.pace import pace_of

    return pace_of(user, refresh=True)


# --- the deletion ---------------------------------------------------------------------------------


@before_deletion
def _leave_tables(user) -> None:
    """Her running games by the rules of resigning (ruling S1, with turn 3), her open tables left or closed."""
    from .services import aborting, tables
    from .services.moves import game_resign

    mine = Seat.objects.filter(user=user).values("game_id")
    for game in Game.objects.filter(pk__in=mine, status=Game.Status.RUNNING).order_by("pk"):
        if Seat.objects.filter(game=game, user=user, abandoned=False).exists():
            game_resign(game_id=game.pk, user=user)
    for game in Game.objects.filter(Q(pk__in=mine) | Q(created_by=user), status=Game.Status.OPEN).order_by("pk"):
        if game.created_by_id == user.pk:
            aborting.game_abort(user=user, game_id=game.pk)
        else:
            tables.game_leave(user=user, game_id=game.pk)


def rename_in_rows(model, column: str, old: str, new: str) -> None:
    """Every row of `model` whose JSON `column` holds the string `old` gets `new` in its place."""
    for row in model.objects.filter(**{f"{column}__icontains": old}).iterator():
        data = getattr(row, column)
        renamed = renamed_in_data(data, old, new)
        if json.dumps(renamed) != json.dumps(data):
            setattr(row, column, renamed)
            row.save(update_fields=[column])


def renamed_in_data(value, old: str, new: str):
    """`value` (JSON data) with every string equal to `old` made `new`."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [renamed_in_data(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: renamed_in_data(v, old, new) for k, v in value.items()}
    return value

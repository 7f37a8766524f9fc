"""Reads: what a person may see of tables and games, built from her seat's view only."""
from __future__ import annotations

from django.db.models import Prefetch, Q

from engine.core import get_game

from .engine_texts import game_title
from .models import Action, Game, Seat
from .positions import legal_actions_for, load_state, seat_of

_SEATS = Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index"))


def seat_summary(seat: Seat, game: Game) -> dict:
    data = {
        "index": seat.index,
        "player": seat.user.username if seat.user_id else None,
        "bot_level": seat.bot_level or None,
        "is_bot": seat.is_bot,
        "abandoned": seat.abandoned,
        "to_act": game.status == Game.Status.RUNNING and seat.index in game.to_act,
        "deadline": seat.deadline.isoformat() if seat.deadline and game.is_running else None,
        "missed_deadlines": seat.missed_deadlines,
    }
    if game.status == Game.Status.FINISHED:
        data.update(rank=seat.rank, score=seat.score)
    return data


def table_summary(game: Game, user=None) -> dict:
    seat = seat_of(game, user)
    return {
        "id": game.pk,
        "game": game.kind,
        "title": game_title(get_game(game.kind).title),
        "players": game.players,
        "options": game.options,
        "pace": game.pace,
        "turn_seconds": game.turn_seconds,
        "private": game.private,
        "status": game.status,
        "version": game.version,
        "created_by": game.created_by.username,
        "created_at": game.created_at.isoformat(),
        "seats": [seat_summary(s, game) for s in game.seats.all()],
        "free_seats": game.players - len(game.seats.all()),
        "my_seat": seat,
        "my_turn": game.status == Game.Status.RUNNING and seat is not None and seat in game.to_act,
    }


def table_detail(game: Game, user=None) -> dict:
    """The table and the game as `user` sees it, with her legal actions."""
    data = table_summary(game, user)
    seat = data["my_seat"]
    if game.state is not None:
        state = load_state(game)
        data["view"] = state.view(seat)
        data["legal_actions"] = legal_actions_for(game, seat, state)
        data["undoable"] = bool(seat is not None and game.is_running and state.undoable(seat))
    else:
        data["view"], data["legal_actions"], data["undoable"] = None, [], False
    if game.status == Game.Status.FINISHED:
        data["seed"] = game.seed  # published once over, so anyone can re-run the log (ruling G0.2)
    if user is not None and seat == 0 and game.private:
        data["invite_code"] = game.invite_code
    return data


def tables_open(*, user=None):
    qs = Game.objects.filter(status=Game.Status.OPEN, private=False).select_related("created_by")
    return qs.prefetch_related(_SEATS).order_by("-created_at")


def tables_of_user(*, user, finished: bool | None = None):
    qs = Game.objects.filter(seats__user=user).select_related("created_by").prefetch_related(_SEATS).distinct()
    if finished is True:
        qs = qs.filter(status__in=[Game.Status.FINISHED, Game.Status.ABORTED])
    elif finished is False:
        qs = qs.filter(status__in=[Game.Status.OPEN, Game.Status.RUNNING])
    return qs


def games_of_user_sorted(*, user) -> list[Game]:
    """My running and open games, the ones waiting for me first."""
    games = list(tables_of_user(user=user, finished=False))

    def key(game: Game):
        seat = next((s.index for s in game.seats.all() if s.user_id == user.pk), None)
        mine = game.status == Game.Status.RUNNING and seat in game.to_act
        return (0 if mine else 1, -game.updated_at.timestamp())

    return sorted(games, key=key)


def action_log(game: Game, user=None, *, after: int = 0) -> list[dict]:
    """The log as `user` may read it: descriptions for all, the raw action to its author or once over."""
    seat = seat_of(game, user)
    over = game.status in (Game.Status.FINISHED, Game.Status.ABORTED)
    rows = []
    for a in Action.objects.filter(game=game, seq__gt=after).order_by("seq"):
        row = {"seq": a.seq, "seat": a.seat, "source": a.source, "description": a.description,
               "created_at": a.created_at.isoformat()}
        if over or a.seat == seat:
            row["action"] = a.action
        rows.append(row)
    return rows


def visible_games(user):
    """Tables a user may look at: public ones and those she sits at or is invited to."""
    qs = Game.objects.all()
    if user is None or not user.is_authenticated:
        return qs.filter(private=False)
    return qs.filter(Q(private=False) | Q(seats__user=user) | Q(invitations__user=user)).distinct()

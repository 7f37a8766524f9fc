"""Shared pieces of the HTMX views: finding a visible table, building the live region, replying.

Views stay thin: reads come from games.selectors, writes go through games.services, and
what is drawn of a game comes from the seat's view only (ruling G0.3).
"""

from __future__ import annotations

import secrets
from functools import wraps

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from boards import registry
from engine.bots import levels as bot_levels

from .. import selectors
from ..log_words import bot_name
from ..models import Game, Pace
from ..selectors.end_of_game import end_of_game
from ..selectors.spectating import spectator_count

# How often an open page asks whether the table changed (seconds).
POLL_SECONDS = {Pace.LIVE: 1, Pace.CORRESPONDENCE: 3}
LOG_LINES = 200
FRAGMENT_HEADER = "X-Topos-Fragment"
LOG_HEADER = "X-Topos-Log"  # what the page's log holds, sent by its htmx requests (games/templates/games/_live.html)


def login_required_htmx(view):
    """Like login_required, but an htmx request is sent to the login page as a whole page."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if request.user.is_authenticated:
            return view(request, *args, **kwargs)
        login = f"{reverse('login')}?next={reverse('table', args=[kwargs['pk']]) if 'pk' in kwargs else '/'}"
        if request.htmx:
            response = HttpResponse(status=401)
            response["HX-Redirect"] = login
            return response
        return redirect_to_login(request.get_full_path())

    return wrapped


def visible_game(request, pk: int) -> Game:
    """The table if the visitor may see it: public, hers, invited to, or with its invite code."""
    qs = Game.objects.select_related("created_by").prefetch_related("seats__user")
    game = qs.filter(pk=pk, id__in=selectors.visible_games(request.user).values("id")).first()
    if game is None:
        code = request.GET.get("code") or request.POST.get("invite_code") or ""
        candidate = qs.filter(pk=pk).first()
        if candidate is not None and code and secrets.compare_digest(code, candidate.invite_code):
            game = candidate
    if game is None:
        raise Http404(_("There is no table with that number that you can see."))
    return game


def seat_names(detail: dict) -> list[str]:
    """A display name per seat index: the player, the bot ("Strong 2", decision 26), or an open seat."""
    names = [_("Open seat")] * detail["players"]
    for seat in detail["seats"]:
        if seat["player"]:
            names[seat["index"]] = seat["player"]
        else:
            names[seat["index"]] = bot_name(seat["bot_level"], seat["index"])
    return names


def seat_players(detail: dict) -> list[dict | None]:
    """The seat summary at each seat index (None for an open seat): what {% player_link %} links, the player's
    name and whether it is a bot account already in it, so the boards' names cost no query (decision 16)."""
    players: list[dict | None] = [None] * detail["players"]
    for seat in detail["seats"]:
        players[seat["index"]] = seat
    return players


def stamp(game: Game) -> str:
    """What the poller compares: the game version plus the last change to the table (joins, bots);
    the table's event stream announces the same (feed)."""
    return selectors.table_stamp(game)


def streams_served(request) -> bool:
    """Whether this server answers the event streams (feed): always under ASGI, under WSGI if the settings say."""
    return isinstance(request, ASGIRequest) or settings.TOPOS_WSGI_STREAMS


def _log_seen(request) -> tuple[int, int] | None:
    """What the page's log holds, as its htmx requests say (LOG_HEADER): the newest line's seq and how many lines
    the visitor may read up to it; None when the page did not say or holds none."""
    if not request.htmx:
        return None
    try:
        seq, count = (int(part) for part in request.headers.get(LOG_HEADER, "").split(":"))
    except ValueError:
        return None
    return (seq, count) if seq > 0 and count > 0 else None


def log_lines(request, game: Game, user) -> dict:
    """The log lines a reply carries: only those after what the page holds, when it holds all it should before
    them (decision 16: a move's answer no longer reads and sends the whole log again), else the latest LOG_LINES.

    `log_mark` is what the page will say it holds next time; `log_only_new` tells the template to keep the
    page's list (hx-preserve) and put the lines on top of it (an out-of-band swap).  A game that ended shows
    lines hidden while it ran (ruling S3), so its page is sent the whole log again.
    """
    seen = _log_seen(request) if game.is_running else None
    if seen is not None:
        new, before = selectors.action_log_since(game, user, seen=seen[0], lines=LOG_LINES)
        if before is None or before == seen[1]:
            newest = new[0]["seq"] if new else seen[0]
            return {"log": new, "log_only_new": True, "log_mark": f"{newest}:{seen[1] + len(new)}"}
    log, total = selectors.action_log_latest(game, user, lines=LOG_LINES)
    return {"log": log, "log_only_new": False, "log_mark": f"{log[0]['seq']}:{total}" if log else "0:0"}


def live_context(
    request,
    game: Game,
    *,
    message: str | None = None,
    error: str | None = None,
    state=None,
    spectators: bool = True,
    written=None,
) -> dict:
    """Everything the live region of a table page shows, for this visitor (`state`: the game's, if in hand;
    `spectators=False`: the count is not read, for a move's answer that may not show it; `written`: the log line
    her move just wrote, selectors.WrittenLine)."""
    user = request.user if request.user.is_authenticated else None
    detail = selectors.table_detail(game, user, state=state, spectators=spectators, written=written)
    names = seat_names(detail)
    seated = detail["my_seat"] is not None
    is_creator = user is not None and game.created_by_id == user.pk
    context = {
        "game": game,
        "detail": detail,
        "names": names,
        "seat_players": seat_players(detail),
        "seats": [
            {"index": i, "name": names[i], "summary": next((s for s in detail["seats"] if s["index"] == i), None)}
            for i in range(game.players)
        ],
        "stamp": stamp(game),
        "poll_seconds": POLL_SECONDS.get(game.pace, 3),
        "polling": game.status in (Game.Status.OPEN, Game.Status.RUNNING),
        "streaming": streams_served(request),
        "message": message,
        "error": error,
        "seated": seated,
        "is_creator": is_creator,
        "bot_levels": [(name, meta.get("label", name)) for name, meta in bot_levels().items()],
        **log_lines(request, game, user),
    }
    if game.is_open:
        invitations = list(game.invitations.select_related("user").order_by("created_at"))
        invited = user is not None and next((i for i in invitations if i.user_id == user.pk), None)
        code = request.GET.get("code") or request.POST.get("invite_code") or ""
        context.update(
            can_join=user is not None and not seated and detail["free_seats"] > 0,
            join_code=code if game.private and not invited else "",
            can_leave=seated and not is_creator,
            # Her invitation, answered here as on the home page (games.services.invitations).
            my_invitation=invited if invited and not seated else None,
            invitations=invitations,
            invite_link=(
                request.build_absolute_uri(reverse("table", args=[game.pk])) + f"?code={game.invite_code}"
                if detail.get("invite_code")
                else ""
            ),
        )
    if game.state is not None:
        context["board"] = registry.present(game.kind, detail, names)
        context["board_templates"] = registry.board_template(game.kind)
    if game.status == Game.Status.FINISHED:
        context["end"] = end_of_game(game, detail, names, user)
    return context


def reply(request, game: Game, *, status: int = 200, message: str | None = None, error: str | None = None, state=None):
    """The live region for htmx, the whole table page otherwise."""
    context = live_context(request, game, message=message, error=error, state=state)
    if not request.htmx:
        return render(request, "games/table.html", context, status=status)
    response = render(request, "games/_live.html", context, status=status)
    response[FRAGMENT_HEADER] = "1"  # lets the page swap a refusal (403/404) that is one of ours
    return response


def answer_move(request, game: Game, *, state, written=None):
    """The htmx answer to a move that was taken (decision 16): the parts a move changes, out of band
    (games/_move_answer.html), rendered from the mover's view like the page, and the page's own swap turned off.

    It takes a running game whose page's log is up to date (the new lines go on top of it) and polls (the poller
    carries the page's stamp and log mark).  Otherwise (the move ended the game, or the page's log is behind or
    empty) the whole live region is sent, as before: those change the header, the end of the game or the log.
    """
    context = live_context(request, game, state=state, spectators=False, written=written)
    if not (game.is_running and context["log_only_new"] and context["polling"]):
        context["detail"]["spectators"] = spectator_count(game)  # the header is sent again, with the count
        response = render(request, "games/_live.html", context)
    else:
        response = render(request, "games/_move_answer.html", context)
        response["HX-Reswap"] = "none"  # the fragments swap themselves (hx-swap-oob); the region stays
    response[FRAGMENT_HEADER] = "1"
    return response


def done(request, game: Game, *, message: str | None = None):
    """After a successful write: the fresh live region (htmx), or back to the table page (PRG)."""
    if request.htmx:
        return reply(request, game, message=message)
    return redirect("table", pk=game.pk)


def refresh(game: Game) -> Game:
    """The table re-read after a write (services return the locked row without prefetches)."""
    return Game.objects.select_related("created_by").prefetch_related("seats__user").get(pk=game.pk)

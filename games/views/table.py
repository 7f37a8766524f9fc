"""The table page: the waiting room or the game, its polling fragment, moves, and the log export."""

from __future__ import annotations

from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config import request_limits

from .. import hooks, selectors, services
from ..errors import IllegalMove, ServiceError, StaleVersion
from ..models import Game
from ..selectors.export import game_export
from ..services.spectators import spectator_record, viewer_key
from .common import answer_move, login_required_htmx, reply, stamp, visible_game


@require_GET
def table(request, pk: int):
    """The whole table page (also answers htmx with just the live region)."""
    game = visible_game(request, pk)
    hooks.table_viewed(game=game, user=request.user)  # ruling S6: she looks (a waiting turn mail is dropped)
    hooks.table_opened(game=game, user=request.user)  # and what the bell told her of it is read
    spectator_record(game=game, viewer=viewer_key(request), user=request.user)  # decision 17: or she watches
    return reply(request, game)


@require_GET
def table_poll(request, pk: int):
    """The poller: 204 while nothing changed, else the fresh live region carrying the new stamp."""
    game = visible_game(request, pk)
    if not request.htmx:
        return redirect("table", pk=pk)
    hooks.table_viewed(game=game, user=request.user)  # the page is still open (throttled)
    spectator_record(game=game, viewer=viewer_key(request), user=request.user)
    if request.GET.get("stamp") == stamp(game):
        return HttpResponse(status=204)
    return reply(request, game)


def _parse_action(request):
    """The action and version posted by the page; a ServiceError-like message when malformed."""
    try:
        action = request_limits.loads(request.POST.get("action", ""))
    except request_limits.JsonRefused as refused:
        return None, None, refused.message
    except ValueError:
        return None, None, _("That move could not be read; reload the page and try again.")
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        return None, None, _("The page did not say which position it showed; reload it and try again.")
    return action, version, None


@login_required_htmx
@require_POST
def table_act(request, pk: int):
    """Submit one action with the version the page saw (games.services.action_submit).

    A move that is taken is answered from the game and state the service left in hand: the table is not read
    before (the service checks who may play) nor after, and htmx is sent only the parts a move changes
    (common.answer_move, decision 16).  Refusals answer with the whole live region as it is.
    """
    if request.user.is_bot_account:  # decision 12: a bot account never plays by hand
        return reply(
            request,
            visible_game(request, pk),
            status=403,
            error=_("This is a bot account: it plays through the API only, not from this page."),
        )
    action, version, problem = _parse_action(request)
    if problem:
        return reply(request, visible_game(request, pk), status=400, error=problem)
    try:
        result = services.action_submit(game_id=pk, user=request.user, action=action, expected_version=version)
    except StaleVersion:
        return reply(
            request,
            visible_game(request, pk),
            status=409,
            error=_("The game moved on since you looked; here is the board as it is now."),
        )
    except IllegalMove as exc:
        return reply(request, visible_game(request, pk), status=400, error=exc.message)
    except ServiceError as exc:
        return reply(request, visible_game(request, pk), status=exc.status_code, error=exc.message)
    if not request.htmx:
        return redirect("table", pk=pk)
    return answer_move(request, result.game, state=result.state, written=result.written)


@require_GET
def table_log_json(request, pk: int):
    """The action log as this visitor may read it; the commitment to the seed from the start, and once the game is
    finished the seed and the published result (ruling G0.2)."""
    game = visible_game(request, pk)
    user = request.user if request.user.is_authenticated else None
    data = {
        "table": game.pk,
        "game": game.kind,
        "players": game.players,
        "options": game.options,
        "status": game.status,
        "version": game.version,
        "seats": [
            {"index": s["index"], "player": s["player"], "bot_level": s["bot_level"]}
            for s in selectors.table_summary(game, user)["seats"]
        ],
        "log": selectors.action_log(game, user),
    }
    data["seed_salt"], data["seed_commitment"] = game.seed_salt, game.seed_commitment  # public from the start
    if game.status == Game.Status.ABORTED:
        data["aborted"] = selectors.aborted_summary(game)  # no result, and why (ruling S1, turn 3)
    if game.status == Game.Status.FINISHED:
        # The seed and the published result, beside this page's log (with its lines): `python -m engine.verify`
        # reads it.
        data = {**game_export(game), **data}
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="topos-{game.kind}-{game.pk}.json"'
    return response

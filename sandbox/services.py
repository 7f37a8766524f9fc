"""Every write of a sandbox (decision 29, point 1): fork, move, take back, go to a node, ask a bot, delete, expire.

Rulings: a sandbox starts from a full state *sampled* from one seat's view with the engine's `determinize` (the
bots' own way, ruling S2), so the real hidden state (others' hands, deck order, face-down tiles, crate values, the
seed) never enters it (ruling G0.3).  While the game runs, only the seat's own view, at a ply that seat may see,
is used (ruling S3, games.selectors.replay.visible_to); after the end everything is public and any seat's view may be
chosen.  Nothing here writes to the real game.

A bot's answer in a sandbox is computed by a Celery task (sandbox.tasks), never inside the request: the request
writes a token on the sandbox and asks for the task after commit; only the task carrying that token may play, and
only if the sandbox still stands where it stood when the answer was asked for.
"""

from __future__ import annotations

import json
import logging
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.celery import enqueue
from engine.bots import choose_action, levels
from engine.core import IllegalAction, get_game, make_rng
from games.errors import BadRequest, Conflict, Forbidden, IllegalMove, NotFound
from games.log_words import seat_names
from games.models import Game
from games.refusal_words import refusal_words
from games.selectors import replay

from .models import Sandbox

MAX_ACTION_BYTES = 4096
log = logging.getLogger(__name__)


def _json(value):
    """A plain JSON copy (the stored state must not share lists with the live one)."""
    return json.loads(json.dumps(value))


def sandbox_create(*, user, game: Game, seat: int | None = None, ply: int | None = None) -> Sandbox:
    """Fork `game` as `seat` sees it at `ply` (default: now), its hidden parts sampled from that view."""
    mine = next((s.index for s in game.seats.all() if s.user_id == user.pk), None)
    if game.status == Game.Status.RUNNING:
        if mine is None:
            raise Forbidden(_("Only a player of this table can try lines while the game runs."))
        if seat is not None and seat != mine:
            # ruling S3: while the game runs she may see her own seat's view only
            raise Forbidden(_("While the game runs you can try lines only from your own seat."))
        seat = mine
    elif game.status == Game.Status.FINISHED:
        seat = mine if seat is None and mine is not None else (0 if seat is None else seat)
        if not 0 <= seat < game.players:
            raise BadRequest(
                _("There is no seat %(seat)s: this table has seats 0 to %(last)s.")
                % {"seat": seat, "last": game.players - 1}
            )
    else:
        raise Conflict(_("Only a running or finished game can be tried out in a sandbox."))
    if Sandbox.objects.filter(owner=user).count() >= settings.TOPOS_SANDBOXES_PER_PERSON:
        raise Conflict(
            _("You have %(n)s sandboxes, the most one person may keep: delete one to start another.")
            % {"n": settings.TOPOS_SANDBOXES_PER_PERSON}
        )
    seen = replay.plies_seen_by(game, seat)
    ply = seen if ply is None else ply
    if not 0 <= ply <= seen:  # the last ply she may see bounds it (ruling S3): the refusal tells nothing more
        raise NotFound(_("There is no move %(ply)s: this game has moves 0 to %(plies)s.") % {"ply": ply, "plies": seen})
    engine = get_game(game.kind)
    if ply == seen and game.state is not None:
        # Now: the stored position as the table page shows it to that seat (during another seat's unconfirmed
        # turn, the table as it was when that turn began: ruling S3).
        view = _json(engine.load(game.state).view(seat))
    else:
        position = replay.position_at(game, ply)  # 404 when there is no such ply
        if not replay.visible_to(game, position, seat):
            raise NotFound(
                _("Move %(ply)s belongs to a turn not confirmed yet; it is shown once confirmed.") % {"ply": ply}
            )
        view = _json(position.state.view(seat))
    # A fresh random seed of its own: nothing of the real game's seed or order reaches the sample.
    try:
        sampled = engine.determinize(view, seat, make_rng(secrets.token_hex(16), 0))
    except (ValueError, KeyError, IndexError):
        log.exception("sandbox: no state could be sampled from seat %s of table %s at ply %s", seat, game.pk, ply)
        raise Conflict(_("No position could be sampled from this view; try another move of the game.")) from None
    root = _json(sampled.to_json())
    return Sandbox.objects.create(
        owner=user,
        game=game,
        kind=game.kind,
        seat=seat,
        ply=ply,
        root=root,
        state=root,
        nodes=[{"id": 0, "parent": None, "seat": None, "action": None, "by": "start", "phrases": []}],
        current=0,
    )


def _locked(sandbox_id: int, user) -> Sandbox:
    found = Sandbox.objects.select_for_update().filter(pk=sandbox_id, owner=user).first()
    if found is None:
        raise NotFound(_("There is no sandbox with that number that is yours."))
    return found


def path_to(nodes: list[dict], node_id: int) -> list[dict]:
    """The nodes from the fork to `node_id`, in order."""
    by_id = {n["id"]: n for n in nodes}
    out = []
    node = by_id[node_id]
    while node is not None:
        out.append(node)
        node = by_id.get(node["parent"]) if node["parent"] is not None else None
    return out[::-1]


def state_at(sandbox: Sandbox, node_id: int):
    """The sandbox's sampled state at `node_id`: the fork with the path's moves applied again."""
    engine = get_game(sandbox.kind)
    if node_id == sandbox.current:
        return engine.load(_json(sandbox.state))
    state = engine.load(_json(sandbox.root))
    for node in path_to(sandbox.nodes, node_id)[1:]:
        state.apply(node["seat"], node["action"])
    return state


def _names(sandbox: Sandbox) -> dict[int, str]:
    return seat_names(sandbox.game)


def _play(sandbox: Sandbox, state, seat: int, action, by: str) -> None:
    """Apply `action` for `seat` at the current node (a new node, or the child that already holds it)."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < sandbox.game.players:
        raise BadRequest(_("There is no seat %(seat)s at this table.") % {"seat": seat})
    if state.is_over():
        raise Conflict(_("This line is over: take a move back or go to another point to play on."))
    found = state.legal_match(seat, action) if seat in state.to_act() else None
    if found is None:
        try:
            state.check(seat, action)
        except IllegalAction as exc:
            raise IllegalMove(
                refusal_words(sandbox.kind, exc.code, exc.params, _names(sandbox)), reason=exc.code, params=exc.params
            ) from None
        found = action
    for node in sandbox.nodes:
        if node["parent"] == sandbox.current and node["seat"] == seat and node["action"] == found:
            state.apply(seat, found)
            sandbox.current = node["id"]
            break
    else:
        if len(sandbox.nodes) > settings.TOPOS_SANDBOX_MAX_MOVES:
            raise Conflict(
                _("This sandbox holds %(n)s moves, its most: start another sandbox to go on.")
                % {"n": settings.TOPOS_SANDBOX_MAX_MOVES}
            )
        before = state.clone()
        try:
            state.apply(seat, found)
        except IllegalAction as exc:
            raise IllegalMove(
                refusal_words(sandbox.kind, exc.code, exc.params, _names(sandbox)), reason=exc.code, params=exc.params
            ) from None
        node = {
            "id": len(sandbox.nodes),
            "parent": sandbox.current,
            "seat": seat,
            "action": _json(found),
            "by": by,
            "phrases": _json(state.describe(seat, found, before)),
        }
        sandbox.nodes = [*sandbox.nodes, node]
        sandbox.current = node["id"]
    sandbox.state = _json(state.to_json())


def _touch(sandbox: Sandbox) -> None:
    sandbox.used_at = timezone.now()
    sandbox.save()


def sandbox_move(*, user, sandbox_id: int, seat, action) -> Sandbox:
    """Play `action` for `seat` (any seat: she plays them all) at the sandbox's current point."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise BadRequest(_('An action is a JSON object with a "type", e.g. {"type": "end_turn"}.'))
    if len(json.dumps(action)) > MAX_ACTION_BYTES:
        raise BadRequest(_("That action is far too large to be a move."))
    with transaction.atomic():
        sandbox = _locked(sandbox_id, user)
        _play(sandbox, state_at(sandbox, sandbox.current), seat, action, "me")
        sandbox.bot_token = ""  # a bot answer asked for earlier is for a point she has left
        _touch(sandbox)
    return sandbox


def sandbox_undo(*, user, sandbox_id: int) -> Sandbox:
    """Take back the last move of the current line (it stays in the tree: go to it again to replay it)."""
    with transaction.atomic():
        sandbox = _locked(sandbox_id, user)
        parent = path_to(sandbox.nodes, sandbox.current)[-1]["parent"]
        if parent is None:
            raise Conflict(_("Nothing to take back: this is where the sandbox began."))
        _go(sandbox, parent)
    return sandbox


def sandbox_goto(*, user, sandbox_id: int, node) -> Sandbox:
    """Go to any point of the tree (the fork is node 0), to play a different line from there."""
    if not isinstance(node, int) or isinstance(node, bool):
        raise BadRequest(_("Name a point of the sandbox by its number."))
    with transaction.atomic():
        sandbox = _locked(sandbox_id, user)
        if not 0 <= node < len(sandbox.nodes):
            raise NotFound(_("This sandbox has no point %(node)s.") % {"node": node})
        _go(sandbox, node)
    return sandbox


def _go(sandbox: Sandbox, node_id: int) -> None:
    state = state_at(sandbox, node_id)
    sandbox.current = node_id
    sandbox.state = _json(state.to_json())
    sandbox.bot_token = ""
    _touch(sandbox)


def sandbox_bot_ask(*, user, sandbox_id: int, seat, level: str = "greedy") -> Sandbox:
    """Ask the site's bot of `level` to answer for `seat` here; a worker plays it (sandbox.tasks), soon after."""
    if level not in levels():
        raise BadRequest(_("There is no bot level called %(level)s.") % {"level": str(level)[:40]})
    with transaction.atomic():
        sandbox = _locked(sandbox_id, user)
        state = state_at(sandbox, sandbox.current)
        if state.is_over():
            raise Conflict(_("This line is over: take a move back or go to another point to play on."))
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in state.to_act():
            raise Conflict(
                _("Seat %(seat)s has nothing to decide here; the seats to decide are %(seats)s.")
                % {"seat": seat, "seats": ", ".join(map(str, state.to_act()))}
            )
        sandbox.bot_token = secrets.token_hex(8)
        sandbox.bot_seat, sandbox.bot_level = seat, level
        _touch(sandbox)
        token = sandbox.bot_token
        transaction.on_commit(lambda: enqueue("sandbox.tasks.sandbox_bot_answer", sandbox.pk, token))
    return sandbox


def sandbox_bot_answer(sandbox_id: int, token: str) -> bool:
    """The worker's part: the bot decides from its seat's view of the sandbox and plays it. True if it played."""
    sandbox = Sandbox.objects.filter(pk=sandbox_id).first()
    if sandbox is None or not token or sandbox.bot_token != token:
        return False
    at, seat, level = sandbox.current, sandbox.bot_seat, sandbox.bot_level
    state = state_at(sandbox, at)
    # The bot sees its seat's view of the sandbox only, and samples the rest itself (ruling S2).
    action = choose_action(level, sandbox.kind, state.view(seat), seat, f"sandbox:{sandbox.pk}:{at}:{seat}")
    with transaction.atomic():
        sandbox = Sandbox.objects.select_for_update().filter(pk=sandbox_id).first()
        if sandbox is None or sandbox.bot_token != token or sandbox.current != at:
            return False  # she moved, took back or asked again meanwhile: this answer is for a point she left
        sandbox.bot_token = ""
        if action is not None:
            try:
                _play(sandbox, state_at(sandbox, at), seat, action, "bot")
            except (IllegalMove, Conflict):
                action = None
        sandbox.save()
    return action is not None


def sandbox_delete(*, user, sandbox_id: int) -> None:
    with transaction.atomic():
        _locked(sandbox_id, user).delete()


def sandboxes_expire(now=None) -> int:
    """Delete the sandboxes nobody used for TOPOS_SANDBOX_DAYS days; how many (beat, hourly)."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.TOPOS_SANDBOX_DAYS)
    deleted, _per_model = Sandbox.objects.filter(used_at__lt=cutoff).delete()
    return deleted

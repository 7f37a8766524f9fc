"""Pages about a player and her tables that hang under /accounts/ (decision 25: accounts imports no later
app, so the pages that read and write games' data live here, at the same paths and URL names): a player's
page and blocking her from it (ruling S7), the profile's vacation section (ruling S4) and its bot-account
button (decision 12).  Her ratings come from the ratings app through games.hooks ("player_ratings").
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import personal
from accounts import selectors as account_selectors
from accounts.views import profile_context
from engine.core import all_games, get_game

from .. import hooks
from .. import selectors as game_selectors
from ..engine_texts import game_title
from ..errors import ServiceError
from ..models import Game
from ..selectors import player_stats
from ..selectors import vacation as vacation_reads
from ..selectors.pace import pace_of, waiting_on
from ..selectors.score_chart import chart
from ..services import account_make_bot
from ..services import blocks as block_services
from ..services import vacation as vacation_services

User = get_user_model()

FINISHED_SHOWN = 50

RECENT_PER_PAGE = 20


def player(request, username: str):
    """A player's page: her statistics per game and her finished games (games.selectors.player_stats), and her games in
    progress; of the tables only those the visitor may see, never her email or tokens."""
    person = get_object_or_404(User, username=username, is_active=True)
    viewer = request.user if request.user.is_authenticated else None
    shown = game_selectors.tables_of_user(user=person).filter(game_selectors.visible_q(viewer))
    current = game_selectors.table_summaries(
        shown.filter(status__in=[Game.Status.OPEN, Game.Status.RUNNING]).order_by("-updated_at")[:FINISHED_SHOWN],
        viewer,
    )
    # Her seat is the one highlighted here, whoever is looking.
    for g in current:
        g["my_seat"] = next((s["index"] for s in g["seats"] if s["player"] == person.username), None)
        g["my_turn"] = False
    kind = request.GET.get("game") if request.GET.get("game") in all_games() else None
    page = Paginator(player_stats.recent_games(person, viewer, kind), RECENT_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/player.html",
        {
            "person": person,
            "stats": player_stats.game_stats(person),
            "current_games": current,
            "finished_games": [player_stats.game_result(g, person) for g in player_stats.games_of(page)],
            "page_obj": page,
            "kind": kind,
            "kind_title": game_title(get_game(kind).title) if kind else "",
            # Ruling S5: her ratings, each with the chart of its history (_rating_history.html).
            "ratings": [{**r, "chart": rating_chart(r)} for r in hooks.player_ratings.joined(person=person)],
            # Ruling S7: only her own block is shown to her; whether he blocked her is never said.
            # Decision 29: her pace profile; on her own page, where others wait for her.
            "pace": pace_of(person),
            "waiting_on_me": waiting_on(person) if viewer is not None and viewer.pk == person.pk else None,
            "i_blocked": viewer is not None
            and viewer != person
            and account_selectors.blocks_of_user(viewer).filter(blocked=person).exists(),
        },
    )


@login_required
@require_POST
def player_block(request, username: str):
    """Block (or, with `unblock`, unblock) the player of this page (ruling S7, games.services.blocks); back to her
    page, or to the profile's list when `next` says so."""
    person = get_object_or_404(User, username=username)
    try:
        if request.POST.get("unblock"):
            block_services.player_unblock(user=request.user, username=person.username)
            messages.success(request, _("You unblocked %(name)s.") % {"name": person.username})
        else:
            block_services.player_block(user=request.user, username=person.username)
            messages.success(
                request,
                _(
                    "You blocked %(name)s. You will not be seated together or hear from each other; "
                    "%(name)s is not told."
                )
                % {"name": person.username},
            )
    except ServiceError as exc:
        messages.error(request, exc.message)
    if request.POST.get("next") == "profile":
        return redirect(reverse("profile") + "#blocked-players")
    return redirect("player", username=person.username)


def rating_chart(history: dict) -> dict:
    """The SVG geometry of one rating's history: its start, then its value after each rated game."""
    return chart([[history["start"]]] + [[point["rating"]] for point in history["history"]], 1, from_zero=False)


def _vacation_context(user, **extra) -> dict:
    return {"vacation": vacation_reads.standing(user), **extra}


def _vacation_response(request, *, status: int = 200, notice: str = "", error: str = ""):
    """The vacation section as an htmx fragment (errors inside a 200, htmx swaps only those), or back to the
    profile without JavaScript."""
    if request.htmx:
        return render(
            request,
            "games/_vacation.html",
            _vacation_context(request.user, vacation_notice=notice, vacation_error=error),
        )
    if error:
        return render(
            request, "accounts/profile.html", profile_context(request.user, vacation_error=error), status=status
        )
    messages.success(request, notice)
    return redirect(reverse("profile") + "#vacation")


@login_required
@require_POST
def vacation_start_view(request):
    raw = (request.POST.get("days") or "").strip()
    try:
        days = int(raw) if raw else None
    except ValueError:
        days = raw  # the service answers with what a length must be
    try:
        started = vacation_services.vacation_start(user=request.user, days=days)
    except ServiceError as exc:
        return _vacation_response(request, status=exc.status_code, error=exc.message)
    until = personal.local_time(started.ends_at)
    return _vacation_response(
        request,
        notice=_("You are on vacation until %(until)s; the clocks of your correspondence games are stopped.")
        % {"until": until},
    )


@login_required
@require_POST
def vacation_end_view(request):
    try:
        vacation_services.vacation_end(user=request.user)
    except ServiceError as exc:
        return _vacation_response(request, status=exc.status_code, error=exc.message)
    return _vacation_response(request, notice=_("Welcome back! Your clocks run again, each with the time it had left."))


@login_required
@require_POST
def bot_account_make(request):
    """Decision 12: the profile's button; the checkbox is the confirmation (no script needed for it)."""
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: a bot account cannot be turned back."))
        return redirect(reverse("profile") + "#bot-account")
    try:
        account_make_bot(user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("This is now a bot account: it plays through the API with a token."))
    return redirect(reverse("profile") + "#bot-account")


def profile_part(user) -> dict:
    """Her tables and her vacation on her profile page (accounts.profile_parts, registered by GamesConfig.ready)."""
    # table_summaries: the seated players' ratings of a whole list in one query, not one per game.
    current = game_selectors.table_summaries(game_selectors.games_of_user_sorted(user=user), user)
    finished_qs = game_selectors.tables_of_user(user=user, finished=True).order_by("-finished_at", "-updated_at")
    finished = game_selectors.table_summaries(finished_qs[:FINISHED_SHOWN], user)
    return {"current_games": current, "finished_games": finished, **_vacation_context(user)}

"""Accounts pages: sign-up with email confirmation, log in/out, passwords, profile and API tokens.

Every page works without JavaScript; with htmx the token list updates in place.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import IntegrityError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.urls import reverse, reverse_lazy
from django.utils import translation
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views import i18n as i18n_views
from django.views.decorators.http import require_http_methods, require_POST

from config.celery import enqueue
from engine.core import all_games, get_game
from games import player_stats
from games import selectors as game_selectors
from games import vacation as vacation_reads
from games.engine_texts import game_title
from games.errors import ServiceError
from games.models import Game
from games.score_chart import chart
from games.services import vacation as vacation_services
from ratings.selectors import rating_histories

from . import limits, personal, selectors, services, token_uses
from .forms import LanguageTimeZoneForm, LoginForm, SignupForm, TokenCreateForm, TokenRenameForm
from .models import ApiToken

User = get_user_model()

FINISHED_SHOWN = 50
RECENT_PER_PAGE = 20


def _too_many(response, refusal: limits.Refusal):
    """A page refused by a limit: 429, and when to come back."""
    response.status_code = 429
    response["Retry-After"] = str(refusal.retry_after)
    return response


class LoginView(auth_views.LoginView):
    """Failed logins are limited per account and per address (accounts.backends); a refusal is 429."""

    authentication_form = LoginForm
    redirect_authenticated_user = True

    def form_invalid(self, form):
        response = super().form_invalid(form)
        refusal = getattr(self.request, "login_refusal", None)
        return _too_many(response, refusal) if refusal else response


class LogoutView(auth_views.LogoutView):
    """POST logs out (Django's rule); GET shows a button for links and browsers without JavaScript."""

    http_method_names = ["get", "post", "options"]

    def get(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return redirect(self.get_success_url())
        return TemplateResponse(request, "registration/logout_confirm.html", {"next": request.GET.get("next", "")})


@require_http_methods(["GET", "POST"])
def signup(request):
    if request.user.is_authenticated:
        return redirect("profile")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        # Every accepted form sends an email, to whatever address it names: limited per address and network.
        granted = limits.take([("signup-address", limits.client_address(request)), ("signup-recipient", d["email"])])
        if isinstance(granted, limits.Refusal):
            form.add_error(None, granted.message)
            return _too_many(render(request, "accounts/signup.html", {"form": form}), granted)
        try:
            services.user_signup(
                username=d["username"],
                email=d["email"],
                password=d["password1"],
                language=get_language() or "",
                time_zone=request.COOKIES.get(personal.ZONE_COOKIE, ""),
            )
        except IntegrityError:
            form.add_error("username", _("That username is taken. Please choose another."))
        else:
            # The same page whatever happened to the address (see services.user_signup).
            return redirect("signup_done")
    return render(request, "accounts/signup.html", {"form": form})


def signup_done(request):
    return render(request, "accounts/signup_done.html")


@require_http_methods(["GET", "POST"])
def signup_activate(request, uidb64: str, token: str):
    """GET asks for a click (mail scanners follow links), POST activates the account and logs in."""
    user = services.user_from_uidb64(uidb64)
    valid = (
        user is not None
        and not user.is_active
        and user.last_login is None
        and services.activation_token.check_token(user, token)
    )
    if request.method == "POST" and valid:
        user = services.user_activate(uidb64=uidb64, token=token)
        if user is not None:
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            messages.success(request, _("Welcome to Topos, %(name)s! Your account is ready.") % {"name": user.username})
            return redirect("profile")
        valid = False
    return render(
        request,
        "accounts/signup_activate.html",
        {"validlink": valid, "account": user if valid else None},
        status=200 if valid else 400,
    )


def _password_changed(request, user, how: str) -> None:
    """Revoke her API tokens and tell her (services.user_password_changed); say so on the next page too."""
    revoked = services.user_password_changed(user=user, how=how)
    if revoked:
        messages.info(
            request,
            ngettext(
                "Your %(n)d API token was revoked with the old password; create a new one on your profile.",
                "Your %(n)d API tokens were revoked with the old password; create new ones on your profile.",
                len(revoked),
            )
            % {"n": len(revoked)},
        )


class PasswordChangeView(auth_views.PasswordChangeView):
    success_url = reverse_lazy("password_change_done")

    def form_valid(self, form):
        response = super().form_valid(form)
        _password_changed(self.request, form.user, "changed")
        return response


class PasswordResetView(auth_views.PasswordResetView):
    """Always ends on the same page: 'if an account exists for that address, we sent an email'.

    The request does the same for every address: it counts the request against the limits and
    hands the address to a task (accounts.tasks.password_reset_mail), which looks for the account
    and mails the link.  So neither the answer nor its time tells whether the account exists.
    """

    success_url = reverse_lazy("password_reset_done")

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        granted = limits.take([("reset-address", limits.client_address(self.request)), ("reset-recipient", email)])
        if isinstance(granted, limits.Refusal):
            form.add_error(None, granted.message)
            return _too_many(self.form_invalid(form), granted)
        enqueue("accounts.tasks.password_reset_mail", email, get_language())
        return redirect(self.get_success_url())


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    def form_valid(self, form):
        response = super().form_valid(form)
        _password_changed(self.request, form.user, "reset")
        return response


# --- Profile ----------------------------------------------------------------------------


def _tokens_context(user, **extra) -> dict:
    tokens = token_uses.with_noted_uses(selectors.tokens_of_user(user=user))  # the later of row and note
    return {"tokens": tokens, "create_form": extra.pop("create_form", None) or TokenCreateForm(), **extra}


def _profile_context(user, **extra) -> dict:
    # table_summaries: the seated players' ratings of a whole list in one query, not one per game.
    current = game_selectors.table_summaries(game_selectors.games_of_user_sorted(user=user), user)
    finished_qs = game_selectors.tables_of_user(user=user, finished=True).order_by("-finished_at", "-updated_at")
    finished = game_selectors.table_summaries(finished_qs[:FINISHED_SHOWN], user)
    speech_form = extra.pop("speech_form", None) or LanguageTimeZoneForm(
        initial={"language": personal.language_of(user), "time_zone": user.time_zone}
    )
    return {
        "current_games": current,
        "finished_games": finished,
        "profile_user": user,
        "speech_form": speech_form,
        **_vacation_context(user, **{k: extra.pop(k) for k in ("vacation_notice", "vacation_error") if k in extra}),
        **_tokens_context(user, **extra),
    }


@login_required
def profile(request):
    return render(request, "accounts/profile.html", _profile_context(request.user))


@login_required
@require_POST
def language_time_zone_set(request):
    """The profile's language and time zone form."""
    form = LanguageTimeZoneForm(request.POST)
    if not form.is_valid():
        return render(request, "accounts/profile.html", _profile_context(request.user, speech_form=form), status=400)
    user = services.user_speech_set(
        user=request.user, language=form.cleaned_data["language"], time_zone=form.cleaned_data["time_zone"]
    )
    translation.activate(user.language)  # the confirmation already in her new language
    messages.success(
        request,
        _("Saved: the site speaks to you in %(language)s, times in %(zone)s.")
        % {"language": translation.get_language_info(user.language)["name_local"], "zone": user.time_zone},
    )
    response = redirect("profile")
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language)
    return response


@require_POST
def language_set(request):
    """The language menu on every page: Django's set_language, and kept on her account when logged in."""
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        services.user_speech_set(user=request.user, language=language)
    return i18n_views.set_language(request)


def player(request, username: str):
    """A player's page: her statistics per game and her finished games (games.player_stats), and her games in
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
        "accounts/player.html",
        {
            "person": person,
            "stats": player_stats.game_stats(person),
            "current_games": current,
            "finished_games": [player_stats.game_result(g, person) for g in player_stats.games_of(page)],
            "page_obj": page,
            "kind": kind,
            "kind_title": game_title(get_game(kind).title) if kind else "",
            # Ruling S5: her ratings, each with the chart of its history (_rating_history.html).
            "ratings": [{**r, "chart": rating_chart(r)} for r in rating_histories(person)],
        },
    )


def rating_chart(history: dict) -> dict:
    """The SVG geometry of one rating's history: its start, then its value after each rated game."""
    return chart([[history["start"]]] + [[point["rating"]] for point in history["history"]], 1, from_zero=False)


def _tokens_response(request, status: int = 200, **extra):
    """The token list as an htmx fragment, or the whole profile page without JavaScript."""
    if request.htmx:
        # htmx swaps only 2xx answers, so errors travel inside a 200 fragment.
        return render(request, "accounts/_tokens.html", _tokens_context(request.user, **extra))
    return render(request, "accounts/profile.html", _profile_context(request.user, **extra), status=status)


@login_required
@require_POST
def token_create(request):
    form = TokenCreateForm(request.POST)
    if not form.is_valid():
        return _tokens_response(request, status=400, create_form=form)
    token, key = services.api_token_create(
        user=request.user, name=form.cleaned_data["name"], expires_in_days=form.expires_in_days()
    )
    # Rendered straight away, never redirected: the key is not kept anywhere to show it twice.
    return _tokens_response(request, new_token=token, new_key=key)


def _my_active_token(request, pk: int) -> ApiToken:
    # Someone else's token, or a revoked one, is simply not found: 404.
    token = selectors.token_of_user(user=request.user, token_id=pk)
    if token is None:
        raise Http404(_("There is no such API token of yours."))
    return token


@login_required
@require_POST
def token_rename(request, pk: int):
    token = _my_active_token(request, pk)
    form = TokenRenameForm(request.POST)
    if form.is_valid():
        services.api_token_rename(token=token, name=form.cleaned_data["name"])
        note = _("Renamed the key %(prefix)s… to “%(name)s”.") % {"prefix": token.prefix, "name": token.name}
        if request.htmx:
            return _tokens_response(request, notice=note)
        messages.success(request, note)
    else:
        note = _("A key's name must be 1 to 60 characters long.")
        if request.htmx:
            return _tokens_response(request, status=400, notice=note)
        messages.error(request, note)
    return redirect(reverse("profile") + "#api-tokens")


@login_required
@require_POST
def token_revoke(request, pk: int):
    token = _my_active_token(request, pk)
    services.api_token_revoke(token=token)
    note = _("Revoked the key “%(name)s” (%(prefix)s…). Programs using it can no longer sign in.") % {
        "name": token.name,
        "prefix": token.prefix,
    }
    if request.htmx:
        return _tokens_response(request, notice=note)
    messages.success(request, note)
    return redirect(reverse("profile") + "#api-tokens")


# --- Vacation (ruling S4) ---------------------------------------------------------------


def _vacation_context(user, **extra) -> dict:
    return {"vacation": vacation_reads.standing(user), **extra}


def _vacation_response(request, *, status: int = 200, notice: str = "", error: str = ""):
    """The vacation section as an htmx fragment (errors inside a 200, htmx swaps only those), or back to the
    profile without JavaScript."""
    if request.htmx:
        return render(
            request,
            "accounts/_vacation.html",
            _vacation_context(request.user, vacation_notice=notice, vacation_error=error),
        )
    if error:
        return render(
            request, "accounts/profile.html", _profile_context(request.user, vacation_error=error), status=status
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
    until = date_format(localtime(started.ends_at), "DATETIME_FORMAT")
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
    """Issue 12: the profile's button; the checkbox is the confirmation (no script needed for it)."""
    from games.services import account_make_bot

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

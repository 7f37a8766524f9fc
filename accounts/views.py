"""Accounts pages: sign-up with email confirmation, log in/out, passwords, profile and API tokens.

Every page works without JavaScript; with htmx the token list updates in place.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.response import TemplateResponse
from django.urls import reverse, reverse_lazy
from django.utils import translation
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views import i18n as i18n_views
from django.views.decorators.http import require_http_methods, require_POST

from config.celery import enqueue

from . import limits, personal, profile_parts, selectors, services, token_uses
from .forms import LanguageTimeZoneForm, LoginForm, SignupForm, TokenCreateForm, TokenRenameForm
from .models import ApiToken

User = get_user_model()


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


def profile_context(user, **extra) -> dict:
    """The profile page's context: hers (language, blocks, tokens) and what later apps add (profile_parts: games
    adds her tables and her vacation).  `extra` goes to the template as it is (a form with errors, a notice)."""
    speech_form = extra.pop("speech_form", None) or LanguageTimeZoneForm(
        initial={"language": personal.language_of(user), "time_zone": user.time_zone}
    )
    return {
        **profile_parts.parts_context(user),
        "profile_user": user,
        "speech_form": speech_form,
        "blocks": list(selectors.blocks_of_user(user)),  # ruling S7: whom she blocked, to unblock
        **_tokens_context(user, **extra),
    }


@login_required
def profile(request):
    return render(request, "accounts/profile.html", profile_context(request.user))


@login_required
@require_POST
def language_time_zone_set(request):
    """The profile's language and time zone form."""
    form = LanguageTimeZoneForm(request.POST)
    if not form.is_valid():
        return render(request, "accounts/profile.html", profile_context(request.user, speech_form=form), status=400)
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


def _tokens_response(request, status: int = 200, **extra):
    """The token list as an htmx fragment, or the whole profile page without JavaScript."""
    if request.htmx:
        # htmx swaps only 2xx answers, so errors travel inside a 200 fragment.
        return render(request, "accounts/_tokens.html", _tokens_context(request.user, **extra))
    return render(request, "accounts/profile.html", profile_context(request.user, **extra), status=status)


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


# --- decision 29: her forced decisions, her data and deleting her account (ruling S8) ----------------------------


@login_required
@require_POST
def auto_play_set(request):
    """The profile's switch: the site plays her forced decisions for her (games.services.auto_play)."""
    user = services.user_auto_play_set(user=request.user, on=request.POST.get("auto_play_forced") == "1")
    if user.auto_play_forced:
        messages.success(request, _("Saved: your forced decisions will be played for you."))
    else:
        messages.success(request, _("Saved: you play every decision yourself."))
    return redirect("profile")


@login_required
def account_data_page(request):
    """Her data (ruling S8): download it as one JSON file, or delete her account (confirmed by her password)."""
    return render(request, "accounts/data.html", {"error": ""})


@login_required
def account_data_download(request):
    from django.http import JsonResponse

    from .data_export import account_data

    answer = JsonResponse(account_data(request.user), json_dumps_params={"ensure_ascii": False, "indent": 1})
    answer["Content-Disposition"] = f'attachment; filename="topos-{request.user.username}.json"'
    return answer


@login_required
@require_POST
def account_delete_view(request):
    from django.contrib.auth import logout

    from .deletion import account_delete, deletion_password_check

    if request.POST.get("confirm") != "1":
        checked = False
    else:
        checked = deletion_password_check(request=request, user=request.user, password=request.POST.get("password", ""))
    if isinstance(checked, limits.Refusal):
        return _too_many(render(request, "accounts/data.html", {"error": checked.message}), checked)
    if not checked:
        error = _("That is not your password, or the deletion was not confirmed: the account was not deleted.")
        return render(request, "accounts/data.html", {"error": error}, status=400)
    account_delete(user=request.user)
    logout(request)
    messages.success(request, _("Your account has been deleted."))
    return redirect("home")

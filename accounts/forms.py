"""Forms of the accounts pages; labels and messages are translatable."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm, SetPasswordMixin, UsernameField
from django.utils.translation import gettext_lazy as _

from .names import DELETED_PREFIX
from .personal import time_zone_names
from .services import pending_expired_q

User = get_user_model()


class LoginForm(AuthenticationForm):
    """Django's login form with one message for every failure: it never says whether the name exists."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": _("That username and password do not match an active account. Both are case-sensitive."),
        "inactive": _("That username and password do not match an active account. Both are case-sensitive."),
    }

    def get_invalid_login_error(self):
        # The backend refused to check the password at all: too many failures (accounts.backends).
        refusal = getattr(self.request, "login_refusal", None)
        if refusal is not None:
            return forms.ValidationError(refusal.message, code="too_many_attempts")
        return super().get_invalid_login_error()


class SignupForm(SetPasswordMixin, forms.Form):
    """Username, email and password; the username must be free, the email is never checked here."""

    username = UsernameField(
        label=_("Username"),
        max_length=150,
        help_text=_("Shown to other players. Letters, digits and @ . + - _ only."),
        widget=forms.TextInput(attrs={"autocomplete": "username", "autofocus": True}),
    )
    email = forms.EmailField(
        label=_("Email"),
        max_length=254,
        help_text=_("We send a link there to confirm the account. It is never shown to other players."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1, password2 = SetPasswordMixin.create_password_fields(label1=_("Password"), label2=_("Password again"))

    def clean_username(self):
        username = self.cleaned_data["username"]
        User.username_validator(username)
        if username.lower().startswith(DELETED_PREFIX):
            # Ruling S8: the shape of a deleted account's neutral name, which no living account may take.
            raise forms.ValidationError(_("That username is taken. Please choose another."), code="taken")
        # Usernames are public anyway, so saying one is taken reveals nothing new.
        if User.objects.filter(username__iexact=username).exclude(pending_expired_q()).exists():
            raise forms.ValidationError(_("That username is taken. Please choose another."), code="taken")
        return username

    def clean(self):
        cleaned = super().clean()
        self.validate_passwords()
        password = cleaned.get("password2")
        if password and not self.has_error("password2"):
            probe = User(username=cleaned.get("username", ""), email=cleaned.get("email", ""))
            try:
                password_validation.validate_password(password, probe)
            except forms.ValidationError as error:
                self.add_error("password2", error)
        return cleaned


class TokenCreateForm(forms.Form):
    NEVER = "never"
    DEFAULT = "90"  # also for a form sent without the field
    EXPIRY_CHOICES = [
        ("30", _("in 30 days")),
        ("90", _("in 90 days")),
        ("365", _("in a year")),
        (NEVER, _("never (until revoked)")),
    ]

    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        required=False,
        help_text=_("What the key is for, e.g. “my bot” or “phone app”."),
        widget=forms.TextInput(attrs={"placeholder": _("e.g. my bot")}),
    )
    expires = forms.ChoiceField(
        label=_("Expires"),
        choices=EXPIRY_CHOICES,
        initial=DEFAULT,
        required=False,
        help_text=_("After that the key stops working; you can always make a new one."),
    )

    def expires_in_days(self) -> int | None:
        choice = self.cleaned_data["expires"] or self.DEFAULT
        return None if choice == self.NEVER else int(choice)


class TokenRenameForm(forms.Form):
    name = forms.CharField(label=_("New name"), max_length=60)


class LanguageTimeZoneForm(forms.Form):
    """The language and time zone the site speaks to her in (accounts.personal)."""

    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        help_text=_("Deadlines and times are shown in it, on the site and in emails."),
        choices=lambda: [(name, name.replace("_", " ")) for name in time_zone_names()],
    )

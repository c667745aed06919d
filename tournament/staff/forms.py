"""Forms of the staff pages: add a person, make an API token, a new organiser account, a staff card. They
declare the fields (types, lengths, choices); the rules are :mod:`tournament.staff.services`'s and
:mod:`tournament.staff.tokens`'s (the API's too), whose refusal lands next to its field."""
from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from common.errors import UserError
from infra.auth import FirstPasswordForm
from tournament.form_fields import UncutCharField, WholeNumberField, apply_user_error
from tournament.models import EventRole
from tournament.staff import first_run, services, tokens

NAME_MESSAGES = {"max_length": _("The name is too long (at most 150 characters).")}
USERNAME_MESSAGES = {"max_length": _("A login name may hold letters, digits and . @ + - _ only.")}
#: The longest login name (Django's ``User.username``; ``services.USERNAME_RE`` says which characters).
USERNAME_MAX = 150


def _display_name(placeholder):
    return UncutCharField(label=_("Name shown on pages and printouts"), max_length=services.DISPLAY_MAX,
                           required=False, error_messages=NAME_MESSAGES,
                           widget=forms.TextInput(attrs={"placeholder": placeholder}))


def _username(help_text):
    return UncutCharField(label=_("Login name"), max_length=USERNAME_MAX, required=False, help_text=help_text,
                           error_messages=USERNAME_MESSAGES, widget=forms.TextInput(attrs={"autocapitalize": "off"}))


def _password(help_text):
    """A password to give (empty: one is made); shown in clear, it is a one-time password to write down."""
    return forms.CharField(label=_("Password"), required=False, help_text=help_text,
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))


class StaffForm(forms.Form):
    """A person given a role in the event: a new account (by display name) or an existing login name."""

    role = forms.ChoiceField(label=_("Role"), choices=EventRole.Role.choices, initial=EventRole.Role.TABLE_REFEREE,
                             error_messages={"invalid_choice": _(
                                 "Choose a role: organiser, chief referee, table referee or arbitration.")})
    display_name = _display_name("张裁判")
    username = _username(_("Leave empty for a new person: one is made from the name. An existing login name gets "
                           "the role added."))
    password = _password(_("For a new person only (an existing account keeps its own password). Leave empty to "
                           "have one made and shown once; it is replaced at the first login."))

    def save(self, event):
        """``(EventRole, password or None)`` from the service, or None with the refusal on the form."""
        d = self.cleaned_data
        try:
            return services.add_staff(event, d["role"], username=d["username"], display=d["display_name"],
                                      password=d["password"] or None)
        except UserError as exc:
            apply_user_error(self, exc)
            return None


class TokenForm(forms.Form):
    """A new API token acting as a person on the event's staff."""

    name = UncutCharField(label=_("Token name"), max_length=tokens.MAX_NAME, required=False,
                           widget=forms.TextInput(attrs={"placeholder": "3号桌平板"}))
    user = forms.TypedChoiceField(label=_("Acts as"), coerce=int, choices=[],
                                  error_messages={"invalid_choice": _("Choose a person on the event's staff."),
                                                  "required": _("Choose a person on the event's staff.")})

    def __init__(self, *args, people=(), **kwargs):
        kwargs.setdefault("auto_id", "token_%s")
        super().__init__(*args, **kwargs)
        self.fields["user"].choices = list(people)

    def save(self, event, by):
        """``(token, key)`` from the service, or None with the refusal on the form."""
        try:
            return tokens.create_token(event, self.cleaned_data["user"], self.cleaned_data["name"], by=by)
        except UserError as exc:
            apply_user_error(self, exc)
            return None


class SiteTokenForm(forms.Form):
    """A new site-wide organiser token of one's own: a program creates events with it."""

    name = UncutCharField(label=_("Token name"), max_length=tokens.MAX_NAME, required=False,
                           widget=forms.TextInput(attrs={"placeholder": "成绩导入脚本"}))

    def save(self, user):
        """``(token, key)`` from the service, or None with the refusal on the form."""
        try:
            return tokens.create_token(None, user.pk, self.cleaned_data["name"], by=user)
        except UserError as exc:
            apply_user_error(self, exc)
            return None


class OrganiserAccountForm(forms.Form):
    """A new account that may create events (the site superuser's page)."""

    display_name = _display_name("区工会 王老师")
    username = _username(_("Leave empty: one is made from the name."))
    password = _password(_("Leave empty to have one made and shown once."))

    def save(self):
        """``(user, password)`` from the service, or None with the refusal on the form."""
        d = self.cleaned_data
        try:
            return services.create_organiser_account(d["display_name"], d["username"], d["password"] or None)
        except UserError as exc:
            apply_user_error(self, exc)
            return None


class CardForm(forms.Form):
    """Whose staff card to print, with the one-time password just shown (printed, never kept)."""

    user_id = WholeNumberField()
    password = forms.CharField(required=False, strip=False)


class FirstRunForm(FirstPasswordForm):
    """The first site administrator: the setup code, the name shown, a login name and a password of their
    own (Django's password validators, as every password an owner sets)."""

    code = forms.CharField(label=_("Setup code"), max_length=20, help_text=_(
        "Shown in the terminal where the server was started (make run), and kept in the server's file "
        "var/setup-code."), widget=forms.TextInput(attrs={"autocapitalize": "characters", "autocomplete": "off"}))
    display_name = UncutCharField(label=_("Name shown on pages and printouts"), max_length=services.DISPLAY_MAX,
                                   error_messages=NAME_MESSAGES)
    username = UncutCharField(label=_("Login name"), max_length=USERNAME_MAX, error_messages=USERNAME_MESSAGES,
                               widget=forms.TextInput(attrs={"autocapitalize": "off"}))
    field_order = ["code", "display_name", "username", "new_password1", "new_password2"]

    def __init__(self, data=None):
        super().__init__(get_user_model()(), data)

    def clean_code(self):
        if not first_run.code_ok(self.cleaned_data["code"]):
            raise ValidationError(_("This is not the setup code shown in the server's terminal."), code="setup_code")
        return self.cleaned_data["code"]

    def clean_display_name(self):
        self.user.first_name = self.cleaned_data["display_name"].strip()
        return self.user.first_name

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        if not services.USERNAME_RE.match(username):
            raise ValidationError(_("A login name may hold letters, digits and . @ + - _ only."), code="invalid")
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise ValidationError(_("The login name %(name)s is taken."), code="taken", params={"name": username})
        self.user.username = username
        return username

    def save(self, commit=True):
        return first_run.make_administrator(self.user.username, self.user.first_name,
                                            self.cleaned_data["new_password2"])

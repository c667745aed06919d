"""Forms of the organiser's entry pages; they only clean input, the services decide."""
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra import clock
from tournament.entries import registration, removals, substitutions
from tournament.entries.limits import LIMITS, MAX_SEED, TOO_LONG
from tournament.entries.services import EntryError, PairData, PlayerData
from tournament.entries.spreadsheets import MAX_UPLOAD_BYTES
from tournament.form_fields import IdChoiceField, UncutCharField, said
from tournament.models import Pair, Player, Registration, UnitLink

GONE_LINK = _("This link is no longer one of the event's live links (revoked meanwhile?): reload the page.")
GONE_SIGNUP = _("This sign-up is not one of the event's: reload the page.")
GENDERS = [(Player.Gender.MALE, _("Male")), (Player.Gender.FEMALE, _("Female"))]
TEL = {"inputmode": "tel", "autocomplete": "off"}


class NameField(UncutCharField):
    """A name (unit, pair, player, team, pool) refused past ``max_length`` in the entries service's sentence
    (:func:`tournament.entries.limits.check_lengths`: the field's label, the limit and the length typed)."""

    def __init__(self, *, max_length: int, **kwargs):
        super().__init__(**kwargs)
        self.most = max_length

    def validate(self, value):
        super().validate(value)
        if value and len(value) > self.most:
            raise ValidationError(gettext(TOO_LONG) % {"label": self.label, "max": self.most, "length": len(value)},
                                  code="max_length")


def apply_entry_error(form: forms.Form, error: EntryError) -> None:
    """Show a service's EntryError on its field when the form has that field, else on the form."""
    form.add_error(error.field if error.field in form.fields else None, str(error))


class PairForm(forms.Form):
    """A pair with its two players, optional seed, team and reserve flag."""

    unit = NameField(label=_("Unit"), max_length=LIMITS["unit"])
    name = NameField(label=_("Pair name"), max_length=LIMITS["name"], required=False,
                           help_text=_("Leave empty to use the two players' names."))
    player1 = NameField(label=_("Player 1"), max_length=LIMITS["player1"])
    gender1 = forms.ChoiceField(label=_("Gender of player 1"), choices=GENDERS)
    phone1 = NameField(label=_("Phone of player 1"), max_length=30, required=False,
                             widget=forms.TextInput(attrs=TEL))
    player2 = NameField(label=_("Player 2"), max_length=LIMITS["player2"])
    gender2 = forms.ChoiceField(label=_("Gender of player 2"), choices=GENDERS)
    phone2 = NameField(label=_("Phone of player 2"), max_length=30, required=False,
                             widget=forms.TextInput(attrs=TEL))
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=MAX_SEED, required=False)
    team = NameField(label=_("Team"), max_length=LIMITS["team"], required=False)
    reserve = forms.BooleanField(label=_("Reserve pair"), required=False)

    @classmethod
    def initial_from(cls, data: PairData) -> dict:
        return {"unit": data.unit, "name": data.name, "seed": data.seed, "team": data.team,
                "reserve": data.reserve, "player1": data.player1.name, "gender1": data.player1.gender,
                "phone1": data.player1.phone, "player2": data.player2.name, "gender2": data.player2.gender,
                "phone2": data.player2.phone}

    def to_data(self) -> PairData:
        d = self.cleaned_data
        return PairData(unit=d["unit"], name=d["name"], seed=d["seed"], team=d["team"], reserve=d["reserve"],
                        player1=PlayerData(d["player1"], d["gender1"], d["phone1"]),
                        player2=PlayerData(d["player2"], d["gender2"], d["phone2"]))


class ReplacePlayerForm(forms.Form):
    """Which player leaves the pair and who comes in."""

    slot = forms.TypedChoiceField(label=_("Player to replace"), coerce=int, choices=[])
    player = NameField(label=_("New player"), max_length=LIMITS["player1"])
    gender = forms.ChoiceField(label=_("Gender"), choices=GENDERS)
    phone = NameField(label=_("Phone"), max_length=30, required=False, widget=forms.TextInput(attrs=TEL))

    def __init__(self, *args, pair, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slot"].choices = [(1, pair.player1.name), (2, pair.player2.name)]

    def to_player(self) -> PlayerData:
        d = self.cleaned_data
        return PlayerData(d["player"], d["gender"], d["phone"])


class IndividualForm(forms.Form):
    """An individual sign-up; ``pool`` keeps e.g. women together in the partner draw."""

    unit = NameField(label=_("Unit"), max_length=LIMITS["unit"])
    player1 = NameField(label=_("Name"), max_length=LIMITS["player1"])
    gender1 = forms.ChoiceField(label=_("Gender"), choices=GENDERS)
    phone1 = NameField(label=_("Phone"), max_length=30, required=False, widget=forms.TextInput(attrs=TEL))
    team = NameField(label=_("Team"), max_length=LIMITS["team"], required=False)
    reserve = forms.BooleanField(label=_("Reserve"), required=False)
    pool = NameField(label=_("Draw pool"), max_length=40, required=False,
                           help_text=_("Players are drawn only with players of the same unit, team, reserve flag "
                                       "and pool (e.g. women for a women's pair)."))


class DrawPairsForm(forms.Form):
    seed = forms.CharField(label=_("Seed"), max_length=64, required=False,
                           help_text=_("Leave empty for a random seed; it is recorded and shown with the draw."))


class ImportForm(forms.Form):
    file = forms.FileField(label=_("File (.xlsx or .csv)"),
                           widget=forms.ClearableFileInput(attrs={"accept": ".xlsx,.csv"}))

    def clean_file(self):
        """A file past the limit is refused on its size, before it is read into memory."""
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is too big (at most 5 MB)."))
        return upload



def _reason(limit):
    return forms.CharField(max_length=limit, required=False, error_messages={
        "max_length": said("The reason may be at most %(max)s characters.", max=limit)})


class RemovalForm(forms.Form):
    """The chief referee's decision on a pair: suspend or disqualify it (``kind``), or lift that (``action``
    lift), with a reason; the removals service says whether it may be done."""

    action = forms.ChoiceField(choices=[("remove", "remove"), ("lift", "lift")], required=False)
    kind = forms.ChoiceField(choices=[(kind, kind) for kind in Pair.REMOVED], required=False,
                             error_messages={"invalid_choice": _("Choose suspension or disqualification.")})
    reason = _reason(removals.REASON_MAX)

    def clean(self):
        data = super().clean()
        if data.get("action") != "lift" and not data.get("kind") and "kind" not in self.errors:
            self.add_error("kind", _("Choose suspension or disqualification."))
        return data


class SubstitutionForm(forms.Form):
    """A reserve pair of the event brought in for a team's pair (the substitutions service checks the team)."""

    pair_in = IdChoiceField(queryset=Pair.objects.none(), error_messages={
        "required": _("Choose the team's reserve pair."), "invalid_choice": _("Choose the team's reserve pair.")})
    reason = _reason(substitutions.REASON_MAX)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pair_in"].queryset = Pair.objects.filter(event=event)


class DraftForm(forms.Form):
    """A unit's draft as its registration page sends it: a player's name, gender and phone per slot
    (``p<slot>-<field>``, texts trimmed), and whether to save it or submit it. The rules are the
    registration service's (:func:`tournament.entries.registration.check`), said per row on the page."""

    action = forms.ChoiceField(choices=[("save", "save"), ("submit", "submit")], required=False)

    def __init__(self, data, *, link: UnitLink):
        super().__init__(data)
        self.link = link
        for index, _reserve in enumerate(registration.slots(link)):
            for name in registration.FIELDS:
                self.fields[f"p{index}-{name}"] = forms.CharField(required=False)

    def rows(self) -> list[dict]:
        """The draft's rows, one per slot (the registration service's shape)."""
        return registration.rows_from(self.cleaned_data, self.link)


class ActionForm(forms.Form):
    """Which of a page's forms was sent (the ``action`` of its hidden input or button): one of ``choices``."""

    action = forms.ChoiceField(choices=[])

    def __init__(self, data, *, choices):
        super().__init__(data)
        self.fields["action"].choices = [(choice, choice) for choice in choices]

    @classmethod
    def sent(cls, request, choices) -> str | None:
        """The action of a POST, or None (a GET, or no action of the page's)."""
        if request.method != "POST":
            return None
        form = cls(request.POST, choices=choices)
        return form.cleaned_data["action"] if form.is_valid() else None


class WithdrawSignupForm(forms.Form):
    """An individual sign-up of the event to withdraw (the service refuses one already drawn into a pair)."""

    registration = IdChoiceField(queryset=Registration.objects.none(), error_messages={
        "required": GONE_SIGNUP, "invalid_choice": GONE_SIGNUP})

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registration"].queryset = Registration.objects.filter(event=event).select_related("player")


class LinkForm(forms.Form):
    """A new registration link: the unit (or the person, in an open event), the contact's phone, a person's
    link. The registration service checks the name and the phone and refuses a unit's second live link."""

    unit = forms.CharField(required=False)
    phone = forms.CharField(required=False)
    individual = forms.BooleanField(required=False)


class WindowForm(forms.Form):
    """The registration window: when the links close (empty: never; a time without offset is the site's) and
    whether every player's phone is required."""

    closes_at = forms.CharField(required=False)
    asks_phone = forms.BooleanField(required=False)

    def clean_closes_at(self):
        try:
            return clock.typed_time(self.cleaned_data["closes_at"])
        except ValueError:
            raise forms.ValidationError(_("Enter a time such as 2026-12-05 09:30."), code="invalid") from None


class LinkActionForm(forms.Form):
    """What the organiser does with one unit's live link from the list (the button's ``action``), with the
    reason for sending its entries back; the registration service says whether the link's state allows it."""

    ACTIONS = ("reissue", "revoke", "reopen", "approve", "refuse", "seen")

    link = IdChoiceField(queryset=UnitLink.objects.none(), error_messages={
        "required": GONE_LINK, "invalid_choice": GONE_LINK})
    note = forms.CharField(max_length=registration.NOTE_MAX, required=False, error_messages={
        "max_length": _(registration.NOTE_TOO_LONG)})

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["link"].queryset = UnitLink.objects.select_related("unit", "event__profile").filter(
            event=event, revoked_at__isnull=True)


class CardForm(forms.Form):
    """The key of a link just made (or given a new key), to print its card: it comes with the request, as it is
    not kept."""

    key = forms.CharField(max_length=100)

"""Forms of the clock pages: the chief's clock actions, the organiser's clock settings and the parallel-rounds
switch. They declare the fields (whole minutes within the service's limit, choices); the rules stay in
:mod:`tournament.clocks.services` (the API's too), whose UserError lands next to its field."""
from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament.clocks.services import MAX_CHANGE_MINUTES
from tournament.form_fields import WholeNumberField
from tournament.models import EventClockSettings

ACTIONS = ["start", "pause", "resume", "add", "table_extra"]
#: The longest note kept with a clock change (longer is cut).
NOTE_MAX = 200
MINUTES_MESSAGES = {"invalid": _("Enter whole minutes."),
                    "min_value": _("Enter a number of minutes from -600 to 600, not 0."),
                    "max_value": _("Enter a number of minutes from -600 to 600, not 0.")}


class ClockActionForm(forms.Form):
    """One action of the chief's clock page: start, pause, resume, add minutes for the hall, or extra minutes
    for one table; ``confirmed`` once the page's question was answered yes."""

    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS],
                               error_messages={"invalid_choice": _("Unknown clock action."),
                                               "required": _("Unknown clock action.")})
    minutes = WholeNumberField(min_value=-MAX_CHANGE_MINUTES, max_value=MAX_CHANGE_MINUTES,
                               error_messages=MINUTES_MESSAGES)
    match = WholeNumberField(error_messages={"invalid": _("Choose a table of this round.")})
    note = forms.CharField(required=False)
    confirmed = forms.BooleanField(required=False)

    def clean_note(self):
        return self.cleaned_data["note"][:NOTE_MAX]

    def add_service_error(self, exc):
        """Show the service's UserError next to the field it names (else above the forms)."""
        self.add_error(exc.field if exc.field in ("minutes", "match") else None, str(exc))

    def echoed(self) -> list:
        """The fields the confirmation form sends again (those given)."""
        return [(k, self.cleaned_data[k]) for k in ("action", "minutes", "match", "note")
                if self.cleaned_data.get(k) not in (None, "")]


class ParallelRoundsForm(forms.Form):
    """Whether several rounds of the event may run their clocks at once (e.g. several halls)."""

    parallel_rounds = forms.TypedChoiceField(choices=[("false", _("No")), ("true", _("Yes"))],
                                             coerce=lambda value: value == "true")


INHERIT = [("", _("Inherit")), ("true", _("Yes")), ("false", _("No"))]
# The fields the service's errors name, mapped to the form's fields.
ERROR_FIELDS = {"match_seconds": "match_minutes", "announce_before_seconds": "announce_minutes_before_end"}


def _label(name):
    return capfirst(EventClockSettings._meta.get_field(name).verbose_name)


def _tristate(name):
    return forms.TypedChoiceField(label=_label(name), choices=INHERIT, required=False, empty_value=None,
                                  coerce=lambda value: value == "true")


class ClockSettingsForm(forms.Form):
    """The five overrides of the profile's timing; an empty field inherits (from the profile, and for a
    round also from the event). Cross-field rules are checked by the service, not here."""

    match_minutes = WholeNumberField(label=_label("match_minutes"), min_value=1, max_value=600)
    announce_enabled = _tristate("announce_enabled")
    announce_minutes_before_end = WholeNumberField(label=_label("announce_minutes_before_end"),
                                                   min_value=0, max_value=600)
    hands_after = WholeNumberField(label=_label("hands_after"), min_value=0, max_value=20)
    hand_in_play_counts = _tristate("hand_in_play_counts")

    @classmethod
    def initial_from(cls, row):
        """Initial values from a stored settings row (None: nothing stored yet)."""
        if row is None:
            return {}
        values = row.overrides()
        for name in ("announce_enabled", "hand_in_play_counts"):
            values[name] = "" if values[name] is None else ("true" if values[name] else "false")
        return values

    def add_service_error(self, exc):
        """Show the service's UserError next to the field it names (else above the form)."""
        field = ERROR_FIELDS.get(exc.field, exc.field)
        self.add_error(field if field in self.fields else None, str(exc))

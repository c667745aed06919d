"""Forms of the organiser's event pages (create, edit, copy). They declare the fields (types, lengths, choices)
and show a refusal next to its field; the rules themselves are :mod:`tournament.events.services`'s, the same
for the API: a service's UserError goes onto the form with :func:`apply_user_error`."""
from django import forms
from django.utils.translation import gettext_lazy as _

from common.errors import UserError
from tournament.events import services
from tournament.form_fields import UncutCharField, WholeNumberField, apply_user_error
from tournament.models import Event

#: The messages of the service for what the form's own field types catch first (the same msgids).
DATE_MESSAGES = {"invalid": _("Enter a date such as 2026-12-05.")}
NAME_MESSAGES = {"max_length": _("The name is too long (at most 200 characters).")}
TEXT_MESSAGES = {"max_length": _("Too long (at most 200 characters).")}
SLUG_MESSAGES = {"max_length": _("The web address may hold lower-case letters, digits and hyphens only.")}
#: The longest web address (``Event.slug``; ``services.SLUG_RE`` says which characters).
SLUG_MAX = 80


def _text(label, messages=TEXT_MESSAGES, **attrs):
    """A text field the service checks further (it says whether it may be empty: the field is never required)."""
    return UncutCharField(label=label, max_length=services.TEXT_MAX, required=False, error_messages=messages,
                           widget=forms.TextInput(attrs=attrs))


def _date(label):
    """A day typed as 2026-12-05 (the ``<input type=date>`` value in every language)."""
    return forms.DateField(label=label, required=False, input_formats=["%Y-%m-%d"], error_messages=DATE_MESSAGES,
                           widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"}))


def _slug():
    return UncutCharField(label=_("Web address"), max_length=SLUG_MAX, required=False, error_messages=SLUG_MESSAGES,
                           widget=forms.TextInput(attrs={"autocapitalize": "off", "placeholder": _("made from the name")}))


class EventForm(forms.Form):
    """A new event or an existing one's settings (one form for both). The rule profile is fixed once play has
    started and the format once drawn: those fields are then disabled (the stored value stands)."""

    name = _text(_("Event name"), NAME_MESSAGES)
    organising_body = _text(_("Organising body"), placeholder="区总工会")
    start_date = _date(_("First day"))
    end_date = _date(_("Last day"))
    venue = _text(_("Venue"))
    profile = forms.ChoiceField(label=_("Rule profile"), required=False, choices=[],
                                error_messages={"invalid_choice": _("Choose a rule profile.")})
    profile_version = WholeNumberField(label=_("Version"), min_value=1, max_value=2**31 - 1)
    format = forms.ChoiceField(label=_("Format"), required=False, choices=Event.Format.choices,
                               error_messages={"invalid_choice": _("Choose a format from the list.")})
    slug = _slug()
    hand_recorders = forms.ChoiceField(label=_("Who records the hands"), required=False,
                                       choices=Event.Recorders.choices,
                                       error_messages={"invalid_choice": _("Choose who records the hands: the "
                                                                           "referee, the players or either.")})

    def __init__(self, *args, event: Event | None = None, **kwargs):
        if event is not None:
            kwargs.setdefault("initial", {
                "name": event.name, "organising_body": event.organising_body, "start_date": event.start_date,
                "end_date": event.end_date, "venue": event.venue, "profile": event.profile.slug,
                "profile_version": event.profile.version, "format": event.format, "slug": event.slug,
                "hand_recorders": event.hand_recorders})
        else:
            kwargs.setdefault("initial", {"format": Event.Format.GROUPS_ELIMINATION,
                                          "hand_recorders": Event.Recorders.REFEREE})
        super().__init__(*args, **kwargs)
        self.event = event
        self.drawn = event is not None and services.drawn(event)
        self.started = event is not None and services.play_started(event)
        self.fields["profile"].choices = [(p.slug, p.name) for p in services.profile_choices(event)]
        self.fields["profile"].disabled = self.fields["profile_version"].disabled = self.started
        self.fields["format"].disabled = self.drawn

    def values(self) -> dict:
        """The cleaned fields as the service takes them."""
        return {k: self.cleaned_data[k] for k in self.fields}

    def save(self, by) -> Event | None:
        """Create or change the event through the service; None (the refusal on the form) when refused."""
        try:
            if self.event is None:
                return services.create_event(by, self.values())
            return services.update_event(self.event, self.values())
        except UserError as exc:
            apply_user_error(self, exc)
            return None


class CopyEventForm(forms.Form):
    """A copy's own name, days and web address; the rest comes from the event copied."""

    name = _text(_("Event name"), NAME_MESSAGES)
    start_date = _date(_("First day"))
    end_date = _date(_("Last day"))
    slug = _slug()
    with_entries = forms.BooleanField(label=_("Copy the entries too (units, players, pairs)"), required=False)

    def __init__(self, *args, event: Event, **kwargs):
        kwargs.setdefault("initial", {"name": event.name, "start_date": event.start_date,
                                      "end_date": event.end_date})
        super().__init__(*args, **kwargs)
        self.event = event

    def save(self, by) -> Event | None:
        values = {k: self.cleaned_data[k] for k in ("name", "start_date", "end_date", "slug")}
        try:
            return services.copy_event(self.event, by, values, with_entries=self.cleaned_data["with_entries"])
        except UserError as exc:
            apply_user_error(self, exc)
            return None


class PublishForm(forms.Form):
    """Publish (1) or unpublish (0) the event."""

    published = forms.TypedChoiceField(choices=[("1", _("Publish")), ("0", _("Unpublish"))],
                                       coerce=lambda value: value == "1")


class RuleChoicesForm(forms.Form):
    """The event's organiser choices: one field per choice of the profile (its readings' ids; empty: the one
    the file says). A reading the choice does not have is refused on its field; the rules service says the
    rest (:func:`tournament.events.rule_choices.set_choices`: refused once play has started)."""

    def __init__(self, *args, rows, **kwargs):
        super().__init__(*args, **kwargs)
        for row in rows:
            self.fields[row.choice] = forms.ChoiceField(
                choices=[(reading.id, reading.label) for reading in row.readings], required=False,
                error_messages={"invalid_choice": _("Choose one of the readings listed.")})

    def picks(self) -> dict:
        return {name: value for name, value in self.cleaned_data.items() if value}

"""Forms of the organiser's competition pages: stages (from the format, added, edited, deleted), the void of a
draw, the draws themselves and the referees' posts. They declare the fields (whole numbers within the services'
limits, choices, lengths) and say a refusal in the services' own sentences; the rules stay in
:mod:`tournament.competition.stages`, :mod:`~tournament.competition.draws`, :mod:`~tournament.competition.swiss_rounds`
and :mod:`~tournament.competition.referees` (the API's too), whose UserError lands next to its field."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from common.errors import UserError
from tournament.competition import draws, stages, timetable, unit_standings
from tournament.competition.swiss_rounds import MAX_ROUNDS
from tournament.form_fields import IdChoiceField, UncutCharField, WholeNumberField, said
from tournament.models import Draw, Event, Match, Stage

POSITIVE = "%(label)s must be a positive whole number, not %(value)r."
ROUNDS = "The number of rounds must be a whole number from 1 to %(max)s."
PLACES = "The number of places played must be a power of two (2, 4, 8…), not %(value)r."


def first_errors(form: forms.Form, above: str = "stage") -> dict:
    """Field name -> its first error (``above`` for one above the form), as the stage pages show them."""
    return {(above if name == "__all__" else name): str(errors[0]) for name, errors in form.errors.items()}


def typed(form: forms.Form) -> dict:
    """Field name -> what was sent for it, for the fields the post held (to show them again beside a refusal;
    read through the form, never the request)."""
    return {bound.name: bound.value() for bound in form if bound.html_name in form.data}


def _positive(label: str, **kwargs) -> WholeNumberField:
    """A count of 1 or more (``label`` names it in the sentence: "The number of groups")."""
    return WholeNumberField(message=POSITIVE, params={"label": _(label)}, min_value=1, **kwargs)


def _rounds() -> WholeNumberField:
    return WholeNumberField(message=ROUNDS, params={"max": MAX_ROUNDS}, min_value=1, max_value=MAX_ROUNDS)


def _places() -> forms.TypedChoiceField:
    """The places a knock-out plays off (empty: the rule profile's default)."""
    return forms.TypedChoiceField(choices=[(v, _(label)) for v, label in stages.PLACES_CHOICES], coerce=int,
                                  required=False, empty_value=None, error_messages={"invalid_choice": _(PLACES)})


def _name() -> forms.CharField:
    return UncutCharField(max_length=stages.NAME_MAX_LENGTH, required=False, error_messages={
        "max_length": said("A stage name has at most %(most)s characters.", most=stages.NAME_MAX_LENGTH)})


class _EventStages(forms.Form):
    """A form whose ``source`` is one of the event's stages."""

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        if "source" in self.fields:
            self.fields["source"].queryset = event.stages.all()


def _source() -> IdChoiceField:
    return IdChoiceField(queryset=Stage.objects.none(), required=False, error_messages={
        "invalid_choice": _("The qualifiers' source is not a stage of this event.")})


class FromFormatForm(forms.Form):
    """The event's stages made from its format, with the places its knock-out plays off."""

    places_played = _places()


class StageForm(_EventStages):
    """A stage added by hand (a Swiss stage takes its number of rounds; the others their settings)."""

    kind = forms.ChoiceField(choices=Stage.Kind.choices)
    name = _name()
    source = _source()
    n_groups = _positive("The number of groups")
    qualifiers_per_group = _positive("The number of qualifiers per group")
    places_played = _places()
    rounds = _rounds()

    def settings(self) -> dict:
        """The settings given (an empty field is left out: its default applies)."""
        return {k: self.cleaned_data[k] for k in ("n_groups", "qualifiers_per_group", "places_played")
                if self.cleaned_data[k] is not None}


#: The settings the edit form shows for each kind of stage.
def _recorders_field():
    return forms.TypedChoiceField(
        label=_("Who records the hands"), required=False, empty_value=None,
        choices=[("", _("As the event says")), *Event.Recorders.choices],
        error_messages={"invalid_choice": _("Choose who records the hands: the referee, the players or either.")})


EDITED = {Stage.Kind.ROUND_ROBIN: ("n_groups", "qualifiers_per_group", "first_table", "recorders"),
          Stage.Kind.ELIMINATION: ("qualifiers_per_group", "places_played", "first_table", "recorders"),
          Stage.Kind.SWISS: ("rounds", "first_table", "recorders")}


class StageEditForm(_EventStages):
    """A stage's name, qualifiers' source and settings while it is not drawn (only its kind's fields)."""

    name = _name()
    source = _source()
    n_groups = _positive("The number of groups")
    qualifiers_per_group = _positive("The number of qualifiers per group")
    places_played = _places()
    rounds = _rounds()
    first_table = _positive("The first table number")
    recorders = _recorders_field()

    def __init__(self, *args, stage: Stage, **kwargs):
        super().__init__(*args, event=stage.event, **kwargs)
        self.stage = stage
        kept = {"name", *EDITED[stage.kind]} | ({"source"} if stage.kind != Stage.Kind.SWISS else set())
        for name in set(self.fields) - kept:
            del self.fields[name]

    def source_stage(self):
        return self.cleaned_data["source"] if "source" in self.fields else self.stage.source

    def settings(self) -> dict:
        """The stage's settings with this form's: a blank field drops the key (its default applies)."""
        fields = EDITED[self.stage.kind]
        settings = {k: v for k, v in (self.stage.settings or {}).items() if k not in fields}
        settings.update({k: self.cleaned_data[k] for k in fields if self.cleaned_data[k] is not None})
        if "places_played" in settings:
            settings.pop("third_place_match", None)  # the organiser's explicit choice replaces the shortcut
        return settings


class StageActionForm(forms.Form):
    """Which of a stage page's forms was sent: the stages from the format or one added (the stages page); save,
    delete, or void the draw (a stage's edit page)."""

    action = forms.ChoiceField(choices=[(a, a) for a in ("from_format", "create", "save", "delete", "void",
                                                         "recorders")], required=False)


class RecordersForm(forms.Form):
    """Who records a drawn stage's hands from now on (the draw stays as it is)."""

    recorders = _recorders_field()


class DeleteStageForm(forms.Form):
    confirm = forms.BooleanField(error_messages={"required": _("Tick the box to confirm the deletion.")})


class VoidDrawForm(forms.Form):
    """Why the stage's draw is voided (kept on record; the service says it may not be empty)."""

    reason = forms.CharField(required=False, max_length=draws.REASON_MAX_LENGTH, error_messages={
        "max_length": said("The reason has at most %(most)s characters.", most=draws.REASON_MAX_LENGTH)})


class DrawForm(forms.Form):
    """A draw of the stage: its kind and seed; a group draw also the number of groups and of seeded entries."""

    kind = forms.ChoiceField(choices=Draw.Kind.choices)
    seed = forms.CharField(max_length=64, required=False)
    n_groups = _positive("The number of groups")
    seeded = WholeNumberField(message=POSITIVE, params={"label": _("The number of seeded entries")}, min_value=0)

    def options(self) -> dict:
        """The service's keyword arguments (the group counts only for a group draw)."""
        d = self.cleaned_data
        options = {"seed": d["seed"]}
        if d["kind"] == Draw.Kind.GROUPS:
            options.update(n_groups=d["n_groups"], seeded=d["seeded"])
        return options


class SwissForm(forms.Form):
    """The Swiss stage's page: pair the next round (with a seed), or change the number of rounds."""

    action = forms.ChoiceField(choices=[("pair", "pair"), ("rounds", "rounds")], required=False)
    rounds = _rounds()
    seed = forms.CharField(max_length=64, required=False)


class GridStageForm(forms.Form):
    """The stage of the referee grid: one of the event's (a page's ``?stage=`` or the grid form's ``stage``)."""

    stage = IdChoiceField(queryset=Stage.objects.none(), error_messages={
        "required": _("This stage is not one of the event's: reload the page."),
        "invalid_choice": _("This stage is not one of the event's: reload the page.")})

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["stage"].queryset = event.stages.all()


class RefereeGridForm(forms.Form):
    """The stage's grid of tables by rounds: each round's planned start (``start_<round id>``), each table's
    referee (``cell_<match id>``, empty: nobody), or one table's referee for every round (``whole_row`` the
    table, ``row_<table>`` the referee). A referee not of this event, or a time that is no time, is refused
    next to its field; the timetable service says the rest (:mod:`tournament.competition.timetable`)."""

    whole_row = WholeNumberField(min_value=1)

    def __init__(self, *args, rounds, tables, matches, referees, **kwargs):
        super().__init__(*args, **kwargs)
        self.rounds = {f"start_{rnd.pk}": rnd for rnd in rounds}
        for name in self.rounds:
            self.fields[name] = forms.CharField(required=False)
        for table in tables:
            self.fields[f"row_{table}"] = IdChoiceField(queryset=referees, required=False)
        self.cells = {f"cell_{match_id}": match_id for match_id in matches}
        for name in self.cells:
            self.fields[name] = IdChoiceField(queryset=referees, required=False)

    def clean(self):
        data = super().clean()
        for name in self.rounds:
            if name in self.data and name not in self.errors:
                try:
                    data[name] = timetable.parse_start(data.get(name))
                except UserError as error:
                    self.add_error(name, str(error))
        row = data.get("whole_row")
        if row is not None and data.get(f"row_{row}") is None and f"row_{row}" not in self.errors:
            self.add_error(f"row_{row}" if f"row_{row}" in self.fields else "whole_row",
                           _("Choose a referee for the table first."))
        return data

    def starts(self):
        """{round: its planned start} for the rounds the form sent."""
        return {rnd: self.cleaned_data[name] for name, rnd in self.rounds.items() if name in self.data}

    def picks(self):
        """{match id: user id or None} for the cells the form sent (a finished table's cell is not sent)."""
        return {match_id: (self.cleaned_data[name].pk if self.cleaned_data[name] else None)
                for name, match_id in self.cells.items() if name in self.data}


class UnitScoringForm(forms.Form):
    """The unit scoring of the event (empty: the rule profile's value) and the seed of the lot for ties."""

    points = forms.CharField(required=False)
    best_n = WholeNumberField()
    women_bonus = WholeNumberField()
    seed = forms.CharField(max_length=unit_standings.SEED_MAX_LENGTH, required=False, error_messages={
        "max_length": said("The seed may have at most %(most)s characters.", most=unit_standings.SEED_MAX_LENGTH)})

    def clean_points(self):
        try:
            return unit_standings.parse_points(self.cleaned_data["points"])
        except UserError as error:
            raise forms.ValidationError(str(error)) from None


def _person():
    """A person by id (the service says whether they may referee)."""
    return IdChoiceField(queryset=get_user_model().objects.all())


class RefereeAssignForm(forms.Form):
    """A referee put on (or taken off) a table of the event."""

    match = IdChoiceField(queryset=Match.objects.none())
    referee = _person()
    action = forms.ChoiceField(choices=[("assign", "assign"), ("remove", "remove")], required=False)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["match"].queryset = Match.objects.filter(round__stage__event=event)


class RefereeUnitForm(forms.Form):
    """The unit a referee belongs to at this event."""

    referee = _person()
    unit = IdChoiceField(queryset=None)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].queryset = event.units.all()

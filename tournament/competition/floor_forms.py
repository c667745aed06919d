"""The forms of the floor referees: the referee grid's blocks of tables (a round of the stage, none: every
round; the first and last table; one referee or several, who then share the range in the list's order),
and whose tables a floor referee's page lists. The range and the referees are checked again by
:mod:`tournament.competition.blocks`, whose refusal lands next to its field."""
from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from common.names import display_name
from common.numbers import whole
from tournament.form_fields import IdChoiceField, WholeNumberField

TABLE = gettext_noop("Enter a table number: a whole number from 1 to 32767.")
NOT_A_REFEREE = gettext_noop("Choose referees of this event from the list: reload the page.")


class IdsChoiceField(forms.ModelMultipleChoiceField):
    """People of ``queryset`` by their ids, named as every page names them; an id that is not a whole number
    is refused like an unknown one."""

    def label_from_instance(self, obj):
        return display_name(obj)

    def clean(self, value):
        if value and any(whole(v) is None for v in value):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().clean([whole(v) for v in value] if value else value)


def _table(label: str) -> WholeNumberField:
    return WholeNumberField(message=TABLE, required=True, min_value=1, max_value=32767, label=label)


class RefereeBlockForm(forms.Form):
    """One step of the grid: tables ``first``..``last`` of ``round`` (empty: every round of the stage) for
    ``referees`` (one: the whole range; several: equal consecutive blocks, in the order of the list)."""

    stage = IdChoiceField(queryset=None, widget=forms.HiddenInput, error_messages={
        "required": _("This stage is not one of the event's: reload the page."),
        "invalid_choice": _("This stage is not one of the event's: reload the page.")})
    round = IdChoiceField(queryset=None, required=False, label=_("Round"), empty_label=_("Every round of the stage"),
                          error_messages={"invalid_choice": _("This round is not one of the stage's: reload the page.")})
    first = _table(_("From table"))
    last = _table(_("To table"))
    referees = IdsChoiceField(queryset=None, label=_("Referees"), error_messages={
        "required": _("Choose at least one referee."), "invalid_choice": _(NOT_A_REFEREE),
        "invalid_pk_value": _(NOT_A_REFEREE)})

    def __init__(self, *args, stage, referees, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["stage"].queryset = stage.event.stages.all()
        self.fields["round"].queryset = stage.rounds.order_by("number")
        self.fields["referees"].queryset = referees
        self.fields["referees"].widget.attrs["size"] = 8
        self.stage = stage

    def clean_stage(self):
        chosen = self.cleaned_data["stage"]
        if chosen is not None and chosen.pk != self.stage.pk:
            raise ValidationError(_("This stage is not one of the event's: reload the page."))
        return chosen

    def clean(self):
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first is not None and last is not None and first > last:
            self.add_error("last", _("The last table (%(last)s) comes before the first (%(first)s).")
                           % {"first": first, "last": last})
        return data

    def rounds(self) -> list:
        """The rounds the step covers: the one chosen, else every round of the stage."""
        chosen = self.cleaned_data.get("round")
        return [chosen] if chosen is not None else list(self.stage.rounds.order_by("number"))


class FloorRefereeForm(forms.Form):
    """Whose tables a floor referee's page lists (``?referee=``; none: the person looking)."""

    referee = IdChoiceField(queryset=None, required=False, error_messages={
        "invalid_choice": _("This person is not a referee of this event.")})

    def __init__(self, *args, referees, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["referee"].queryset = referees

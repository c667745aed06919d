"""The desk's forms: the sides' slips printed for a round, a side's slip re-issued."""
from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from common.numbers import whole
from tournament.form_fields import WholeNumberField


class RoundSlipsForm(forms.Form):
    """The tables whose sides get new codes ("3, 7，12"; empty: every open table of the round)."""

    tables = forms.CharField(required=False, max_length=2000)

    def clean_tables(self):
        parts = [part.strip() for part in self.cleaned_data["tables"].replace("，", ",").split(",") if part.strip()]
        numbers = [whole(part) for part in parts]
        if any(number is None for number in numbers):
            raise ValidationError(_("Type table numbers separated by commas."), code="invalid")
        return numbers


class ReissueSlipForm(forms.Form):
    """One side of one table: its new code (the old one dies) and its new slip."""

    table = WholeNumberField(required=True, min_value=1, message="No such table in this round.")
    side = forms.ChoiceField(choices=[("NS", "NS"), ("EW", "EW")],
                             error_messages={"invalid_choice": _("Choose the side: north–south or east–west.")})

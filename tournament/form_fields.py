"""Form fields the organiser's pages share: numbers and ids read as :func:`common.numbers.whole` reads them
(ASCII digits, bounded: "²", "١" or a 20-digit id is "not a number", never a 500), and a refusal said in the
service's own sentence so that the page says what the API says."""
from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.errors import UserError
from common.numbers import whole


def said(msgid: str, **params) -> str:
    """``msgid`` translated when shown, with ``params`` filled in (a form's message has no room for them)."""
    return lazy(lambda: gettext(msgid) % params, str)()


class Refusal:
    """A page's one refusal, as the templates show it (``{{ error }}``, ``error.field``): a service's
    UserError, or the first error of a form."""

    def __init__(self, field, text):
        self.field, self.text = field, text

    def __str__(self):
        return str(self.text)

    @classmethod
    def first_of(cls, form):
        for name, errors in form.errors.items():
            return cls(None if name == "__all__" else name, errors[0])
        return None


def apply_user_error(form: forms.Form, error: UserError) -> None:
    """Show a service's UserError on its field when the form has that field, else above the form."""
    form.add_error(error.field if error.field in form.fields else None, str(error))


class UncutCharField(forms.CharField):
    """A text field the page never cuts: no ``maxlength`` attribute (a browser drops what is typed or pasted
    past it without a word, and a name would be saved cut); ``max_length`` is checked on the server and the
    refusal shown next to the field. Every name field of the organiser's pages is one."""

    def widget_attrs(self, widget):
        attrs = super().widget_attrs(widget)
        attrs.pop("maxlength", None)
        return attrs


class WholeNumberField(forms.IntegerField):
    """An optional whole number (a leading minus when ``min_value`` is below zero) within the service's limits.

    With ``message`` (an English msgid of the service's), every refusal is that sentence, ``%(value)r`` the
    input and ``params`` the rest; without, Django's (translated) ones."""

    def __init__(self, *, message: str | None = None, params: dict | None = None, **kwargs):
        self.message, self.params = message, params or {}
        kwargs.setdefault("required", False)
        kwargs.setdefault("widget", forms.NumberInput(attrs={"inputmode": "numeric"}))
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return None
        text = str(value).strip()
        negative = text.startswith("-") and self.min_value is not None and self.min_value < 0
        number = whole(text[1:] if negative else text)
        if number is None and self.min_value is not None and text.startswith("-") and whole(text[1:]) is not None:
            return -whole(text[1:])   # "-5" is a whole number below the least allowed: the min_value check says so
        if number is None:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return -number if negative else number

    def clean(self, value):
        try:
            return super().clean(value)
        except ValidationError as exc:
            if self.message is None:
                raise
            shown = whole(value) if whole(value) is not None else value
            raise ValidationError(_(self.message), code=exc.error_list[0].code,
                                  params={**self.params, "value": shown}) from None


class IdChoiceField(forms.ModelChoiceField):
    """One row of ``queryset`` by its id; an id that is not a whole number is refused like an unknown one."""

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if whole(value) is None:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice",
                                  params={"value": value})
        return super().to_python(whole(value))

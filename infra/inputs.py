"""What the API's request serializers accept is what the OpenAPI description says, and nothing more: a client
built from the description must not find the server taking what it was told is refused.

DRF's fields are lenient with JSON: a ``CharField`` takes the number ``0`` (a stage named ``0``), an
``IntegerField`` the text ``"5"``, a ``BooleanField`` ``0``, ``"yes"`` or ``"on"``, a ``ChoiceField`` the
text ``"1"`` for the choice ``1``; and a trimmed text is measured after trimming. The description says
``string``, ``integer``, ``boolean``, an enum, a ``maxLength``: :class:`StrictInput`, the base of every
request serializer, refuses a JSON value of another type (400 naming the field) before DRF converts it, and
measures a text as sent. A form body (a ``QueryDict``: every value a text) is left to DRF's conversions.

The texts' rules are stated in the description by ``infra.api_schema.AutoSchema`` from the fields: every
writable text holds no NUL (:data:`NO_NUL`; PostgreSQL stores none, ``infra.parsers`` refuses it), and a
text that may not be blank holds at least one character that is not white space (:data:`NOT_BLANK`, with
``minLength: 1``; white space is what Python's ``str.strip`` removes, spelled out so every regular
expression engine reads the same class).

``closed = True`` on a serializer: keys it does not declare are refused (``additionalProperties: false``).
"""
from collections.abc import Mapping

from django.http import QueryDict
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

#: The characters ``str.strip()`` removes (``str.isspace``), as a regular expression class's contents.
SPACE = "\\t-\\r\\u001c-\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000"
#: Any text without a NUL.
NO_NUL = "^[^\\u0000]*$"
#: A text without a NUL with at least one character that is not white space.
NOT_BLANK = f"^[^\\u0000]*[^\\u0000{SPACE}][^\\u0000]*$"

_UNKNOWN = _("Unknown field: this request does not take it.")


def _json_kind(value):
    """The JSON type of a Python value (a TextChoices member is a text)."""
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind
    return type(value)


def _message(field, key, **params):
    """The field's own message (DRF's, translated, or the one the serializer gave it)."""
    return field.error_messages[key].format(**params)


def type_error(field, value):
    """Why the JSON ``value`` does not fit ``field`` as the description states it, in the field's own words
    (None: it fits, or DRF decides: ``null`` is DRF's to accept or refuse by ``allow_null``)."""
    if value is None:
        return None
    if isinstance(field, serializers.ChoiceField):
        if isinstance(field, serializers.MultipleChoiceField):
            return None
        if value == "" and getattr(field, "allow_blank", False):
            return None
        if not any(_json_kind(value) == _json_kind(key) for key in field.choices):
            return _message(field, "invalid_choice", input=value)  # 1 for "1", "1" for 1: DRF would take it
        return None  # one of the choices, or the field's own message
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else _message(field, "invalid", input=value)
    if isinstance(field, (serializers.IntegerField, serializers.FloatField)):
        kinds = (int,) if isinstance(field, serializers.IntegerField) else (int, float)
        if isinstance(value, bool) or not isinstance(value, kinds):
            return _message(field, "invalid")
        return None
    if isinstance(field, (serializers.CharField, serializers.DateField, serializers.DateTimeField)):
        if not isinstance(value, str):
            return _message(field, "invalid", format="YYYY-MM-DD")
        most = getattr(field, "max_length", None)
        if most is not None and len(value) > most:  # as sent: DRF measures it trimmed
            return _message(field, "max_length", max_length=most)
        return None
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return _message(field, "not_a_list", input_type=type(value).__name__)
        for item in value:
            found = type_error(field.child, item)
            if found:
                return found
        return None
    if isinstance(field, serializers.DictField):
        return None if isinstance(value, dict) else _message(field, "not_a_dict", input_type=type(value).__name__)
    if isinstance(field, serializers.BaseSerializer) and not getattr(field, "many", False):
        return None if isinstance(value, dict) else _message(field, "invalid", datatype=type(value).__name__)
    return None


class StrictInput(serializers.Serializer):
    """A request serializer that takes JSON values of the types its description states (see the module)."""

    closed = False  # True: keys the serializer does not declare are refused (``additionalProperties: false``)

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and not isinstance(data, QueryDict):
            errors = {}
            for name, field in self.fields.items():
                if field.read_only or name not in data:
                    continue
                message = type_error(field, data[name])
                if message:
                    errors[name] = [message]
            if self.closed:
                for key in data:
                    if key not in self.fields:
                        errors[str(key)] = [_UNKNOWN]
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)

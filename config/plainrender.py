"""A serializer's output rendering compiled once into plain Python (for the answers of the hot writes).

    renderer(serializer) -> render(data) -> dict

DRF renders an answer field by field through generic machinery (``get_attribute``, ``to_representation``
of every field, ordered dicts): for the ruling a table records that costs more than storing it. The
function :func:`renderer` walks a serializer's (bound) fields once and gives a function that renders the
same output from a presenter's dict: nested serializers, lists of them, list and dict fields, and each
field's own ``to_representation`` for the values it must convert (times, choices); strings, whole
numbers and booleans are passed as DRF would give them. A value that is None stays None, as in DRF. A
presenter's dict missing a field's name falls back to DRF's own rendering of the whole object.
With ``PLAIN_RENDER_CHECK`` on (the test suite turns it on) every answer is rendered both ways and a
difference fails the request, so every test that records, voids, approves or appeals checks it.
"""
from django.conf import settings
from rest_framework import fields, serializers


def _value_renderer(field):
    if isinstance(field, serializers.ListSerializer):
        child = _value_renderer(field.child)
        return lambda value: [child(item) for item in value]
    if isinstance(field, serializers.Serializer):
        return renderer(field)
    if isinstance(field, fields.ListField):
        child = _value_renderer(field.child)
        return lambda value: [None if item is None else child(item) for item in value]
    if isinstance(field, fields.DictField):
        child = _value_renderer(field.child)
        return lambda value: {str(key): None if item is None else child(item) for key, item in value.items()}
    if type(field) is fields.CharField:
        return str
    if type(field) is fields.IntegerField:
        return int
    return field.to_representation


def renderer(serializer):
    """``render(data)``: ``serializer.to_representation(data)`` for a dict ``data`` keyed by field name."""
    plan = [(name, _value_renderer(field)) for name, field in serializer.fields.items()
            if not field.write_only and field.source == name]
    if len(plan) != len([f for f in serializer.fields.values() if not f.write_only]):
        return serializer.to_representation   # a field reads another attribute: DRF's own rendering

    def render(data):
        try:
            out = {name: None if (value := data[name]) is None else convert(value) for name, convert in plan}
        except (KeyError, TypeError):
            return serializer.to_representation(data)
        if settings.PLAIN_RENDER_CHECK:   # the test suite: every answer rendered both ways must agree
            expected = serializer.to_representation(data)
            if out != expected:
                raise AssertionError(f"{type(serializer).__name__}: plain {out!r} != DRF {expected!r}")
        return out

    return render

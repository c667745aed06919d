"""infra.renderers.JSONRenderer (orjson) gives DRF's JSON renderer's bytes for the API's answers (issue #15:
an answer listing every hand is encoded on every hand recorded), and hands what it cannot write to DRF."""
import datetime as dt
import decimal
import json
import uuid
import zoneinfo

import pytest
from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import renderers as drf
from rest_framework.settings import api_settings
from rest_framework.utils.serializer_helpers import ReturnDict, ReturnList

from infra.fields import JSONText
from infra.renderers import JSONRenderer

ours, theirs = JSONRenderer(), drf.JSONRenderer()

# What the API's answers hold: text (Chinese, line separators, NUL-free), whole numbers, booleans, None,
# floats DRF would write the same way, lists and objects of them.
scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**63 - 1), st.text(),
                    st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: f == 0 or 1e-4 < abs(f) < 1e16))
answers = st.recursive(scalars, lambda children: st.lists(children, max_size=5) | st.dictionaries(
    st.text(max_size=8), children, max_size=5), max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(answers)
def test_the_same_bytes_as_drf(data):
    assert ours.render(data) == theirs.render(data)


def test_values_json_does_not_know_are_written_by_drfs_encoder():
    zone = zoneinfo.ZoneInfo("Asia/Shanghai")
    data = ReturnDict({
        "utc": dt.datetime(2026, 12, 5, 1, 2, 3, 456000, tzinfo=dt.timezone.utc),
        "beijing": dt.datetime(2026, 12, 5, 9, 2, 3, tzinfo=zone), "day": dt.date(2026, 12, 5),
        "time": dt.time(9, 30), "wait": dt.timedelta(minutes=5), "price": decimal.Decimal("1.50"),
        "id": uuid.UUID(int=7), "label": gettext_lazy("Hand"), "bytes": b"ok", "list": ReturnList([1, "二"], serializer=None),
        "line": "甲\u2028乙\u2029丙", 3: "a number key", "nested": {"at": dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)},
    }, serializer=None)
    assert ours.render(data) == theirs.render(data)
    assert b'"utc":"2026-12-05T01:02:03.456000Z"' in ours.render(data) and b"\\u2028" in ours.render(data)


@pytest.mark.parametrize("data", [{"big": 2**70}, {"small": -2**64}])
def test_what_orjson_cannot_write_goes_to_drf(data):
    assert ours.render(data) == theirs.render(data)


def test_what_neither_can_write_fails_as_drf_does():
    with pytest.raises(TypeError, match="keys must be"):
        ours.render({gettext_lazy("key"): 1})
    with pytest.raises(UnicodeEncodeError):
        ours.render({"surrogate": "\ud800"})


def test_indented_answers_and_nothing_are_drfs():
    data = {"a": [1, 2]}
    assert ours.render(data, "application/json; indent=2") == theirs.render(data, "application/json; indent=2")
    assert b"\n" in ours.render(data, "application/json; indent=2")
    assert ours.render(None) == theirs.render(None) == b""


def test_the_api_answers_with_it():
    assert api_settings.DEFAULT_RENDERER_CLASSES[0] is JSONRenderer


@settings(max_examples=200, deadline=None)
@given(answers.filter(lambda data: data is not None))   # None is stored as NULL
def test_the_kept_state_reads_back_what_json_wrote(data):
    """A kept state written by the earlier code (json) is read by the new (orjson), and the text is the same."""
    field = JSONText()
    earlier = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    assert field.to_python(earlier) == json.loads(earlier)
    assert field.get_prep_value(data) == earlier


def test_the_kept_state_takes_what_orjson_refuses_as_json_does():
    field = JSONText()
    assert field.get_prep_value({"big": 2**70}) == '{"big":1180591620717411303424}'
    value = field.to_python('{"x":NaN}')
    assert value["x"] != value["x"]   # NaN, as json read it

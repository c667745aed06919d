"""The ruling POST's plain-body path (rulings.serializers.plain_record_input) gives exactly what
RecordSerializer validates, or steps aside (None) so the serializer validates and words the error
(issue #15: cheaper writes must not change what is accepted)."""
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulings.serializers import RecordSerializer, plain_record_input

ANYTHING = st.one_of(st.none(), st.booleans(), st.integers(-5, 1200), st.floats(allow_nan=False),
                     st.sampled_from(["", " ", "NS", "EW", "N", "x", "5", "delay", " delay", "delay ", "a\x00",
                                      "\ud800", "declarers", "defenders", "x" * 31, "x" * 41, "说明"]),
                     st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(),
                                                                           max_size=1))


def edge(low, high):
    return st.one_of(st.none(), st.sampled_from([low - 1, low, high, high + 1]), st.integers(low, high))


VALID = st.fixed_dictionaries({
    "code": st.sampled_from(["delay", "failed_throw", "out_of_turn", "exposed_card", "x" * 30]),
    "side": st.sampled_from(["NS", "EW", "N", "E", "S", "W"]),
}, optional={
    "minutes": edge(0, 999), "seconds": edge(0, 59), "cards": edge(0, 99), "hand_number": edge(1, 999),
    "choice": st.one_of(st.none(), st.sampled_from(["", "points", "levels", "x" * 40, "x" * 41, " a"])),
    "role": st.one_of(st.none(), st.sampled_from(["", "declarers", "defenders"])),
    "declarer": st.one_of(st.none(), st.sampled_from(["", "N", "E", "S", "W"])),
    "note": st.sampled_from(["", "迟到两分钟", "a" * 2000, "a" * 2001, "line\nline", " padded "]),
})
KEYS = ["code", "side", "minutes", "seconds", "cards", "hand_number", "choice", "role", "declarer", "note",
        "unknown"]


@st.composite
def bodies(draw):
    body = draw(VALID)
    if draw(st.booleans()):
        key = draw(st.sampled_from(KEYS))
        if draw(st.booleans()):
            body.pop(key, None)
        else:
            body[key] = draw(ANYTHING)
    return body


def serializer_says(body):
    serializer = RecordSerializer(data=body)
    return dict(serializer.validated_data) if serializer.is_valid() else None


@settings(max_examples=1000, deadline=None)
@given(bodies())
@example({"code": "delay", "side": "NS", "note": None})
@example({"code": "delay", "side": "NS", "minutes": True})
@example({"code": "delay", "side": "NS", "hand_number": 0})
def test_the_plain_path_agrees_with_the_serializer_or_steps_aside(body):
    plain = plain_record_input(body)
    if plain is not None:
        assert plain == serializer_says(body)


def test_what_the_console_sends_takes_the_plain_path():
    for body in ({"code": "delay", "side": "NS"},
                 {"code": "failed_throw", "side": "EW", "cards": 1, "role": "defenders"},
                 {"code": "lateness", "side": "N", "minutes": 3, "seconds": 20, "hand_number": 4, "note": "迟到"},
                 {"code": "exposed_card", "side": "S", "choice": None, "role": "", "declarer": "N"}):
        assert plain_record_input(body) == serializer_says(body) is not None, body

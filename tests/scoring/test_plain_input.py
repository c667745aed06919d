"""The hand POST's plain-body path (scoring.api.plain_hand_input) gives exactly what HandInputSerializer
validates, or steps aside (None) so the serializer validates and words the error (issue #15: cheaper
writes must not change what is accepted)."""
import json

import pytest
from django.contrib.auth.models import User
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer

from scoring.api import _RECORDED_OUT, HandInputSerializer, plain_hand_input
from scoring.models import Hand
from scoring.presenters import state_payload
from tests.scoring.test_hands_support import (  # noqa: F401  (fixtures)
    chief,
    hand_body,
    match,
    post_correction,
    post_hand,
    referee,
)
from tournament.models import Match

ANY_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-20_000, 20_000), st.floats(allow_nan=False),
                       st.sampled_from(["", " ", "N", "S", "E", "W", "H", "D", "C", "NT", "played", "redeal", "x",
                                        "1", "80", "true", "false", "J", " J", "10", "A\x00", "single", "pair",
                                        "tractor", "defenders", "declarers"]))

def edge_ints(low, high):
    """Whole numbers, often right at a bound or one past it."""
    return st.one_of(st.sampled_from([low - 1, low, high, high + 1]), st.integers(low - 1, high + 1))


TRICK = st.fixed_dictionaries({
    "by": st.sampled_from(["defenders", "declarers"]),
    "shape": st.sampled_from(["single", "pair", "tractor"]),
}, optional={
    "pairs": edge_ints(1, 27),
    "trump": st.booleans(),
    "rank": st.sampled_from(["J", "A", "10", "2", "", " J", "A\x00", "JJJJ", None]),
    "main_rank": st.one_of(st.none(), st.booleans()),
    "buried_by": st.sampled_from(["declarers", "defenders"]),
})

VALID = st.fixed_dictionaries({
    "number": edge_ints(1, 10_000),
    "trump": st.sampled_from(["S", "H", "C", "D"]),
    "defender_points": edge_ints(-10_000, 10_000),
}, optional={
    "declarer": st.one_of(st.none(), st.sampled_from(["N", "E", "S", "W"])),
    "outcome": st.sampled_from(["played", "redeal"]),
    "bottom_points": edge_ints(-10_000, 10_000),
    "last_trick": st.one_of(st.none(), TRICK),
    "reclaim": st.booleans(),
})

BODY_KEYS = ["number", "declarer", "outcome", "trump", "defender_points", "bottom_points", "last_trick",
             "reclaim", "note"]
TRICK_KEYS = ["by", "shape", "pairs", "trump", "rank", "main_rank", "buried_by", "extra"]


@st.composite
def bodies(draw):
    """A body that is valid but near its bounds, then perhaps one name dropped or given any value, in the
    body or in its last trick."""
    body = draw(VALID)
    where = draw(st.sampled_from(["none", "body", "trick"]))
    if where == "body":
        key = draw(st.sampled_from(BODY_KEYS))
        if draw(st.booleans()):
            body.pop(key, None)
        else:
            body[key] = draw(st.one_of(ANY_SCALAR, TRICK))
    elif where == "trick":
        body["last_trick"] = draw(TRICK)
        key = draw(st.sampled_from(TRICK_KEYS))
        if draw(st.booleans()):
            body["last_trick"].pop(key, None)
        else:
            body["last_trick"][key] = draw(ANY_SCALAR)
    return body


def serializer_says(body):
    serializer = HandInputSerializer(data=body)
    if not serializer.is_valid():
        return None
    data = dict(serializer.validated_data)
    if data.get("last_trick") is not None:
        data["last_trick"] = dict(data["last_trick"])
    return data


@settings(max_examples=1000, deadline=None)
@given(bodies())
@example({"number": 2, "trump": "S", "defender_points": 80, "last_trick": {"by": "declarers", "shape": "pair",
                                                                          "rank": "A\x00"}})
@example({"number": 2, "trump": "S", "defender_points": 80, "last_trick": {"by": "declarers", "shape": "pair",
                                                                          "rank": " J"}})
def test_the_plain_path_agrees_with_the_serializer_or_steps_aside(body):
    plain = plain_hand_input(body)
    if plain is not None:
        assert plain == serializer_says(body)


TYPICAL = [
    {"number": 1, "declarer": "N", "trump": "S", "defender_points": 80,
     "last_trick": {"by": "declarers", "shape": "single"}},
    {"number": 7, "trump": "H", "defender_points": 120, "bottom_points": 20,
     "last_trick": {"by": "defenders", "shape": "pair", "pairs": 1, "trump": True, "rank": "J", "main_rank": True,
                    "buried_by": "declarers"}, "reclaim": False},
    {"number": 3, "outcome": "redeal"},
    {"number": 12, "trump": "D", "defender_points": -5, "last_trick": None},
]


def test_what_the_table_page_sends_takes_the_plain_path_with_the_same_result():
    for body in TYPICAL:
        assert plain_hand_input(body) is not None, body
        assert plain_hand_input(body) == serializer_says(body)


def test_anything_unusual_is_left_to_the_serializer():
    for body in ({"number": "3", "trump": "S", "defender_points": 80},      # a string number: DRF converts
                 {"number": 3, "trump": "S", "defender_points": 80.0},      # a float
                 {"number": 3, "trump": "S"},                               # missing points: the error's wording
                 {"number": 3, "trump": "S", "defender_points": 80, "last_trick": {"by": "x", "shape": "single"}},
                 {"number": True, "trump": "S", "defender_points": 80},
                 {"number": 3, "trump": "S", "defender_points": 80, "unknown": 1}):
        assert plain_hand_input(body) is None, body


# --- the answer ------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_plain_answer_is_what_the_serializer_renders(client, match, referee, chief):
    """Every write's answer (first hand, hands with a last trick and a bottom, a redeal, a correction by the
    chief of a match won) equals RecordedSerializer's rendering of the same stored hand and state."""
    client.force_login(referee)
    bodies = [hand_body(1, 45, declarer="N"), hand_body(2, 0, last_trick={"by": "defenders", "shape": "pair"},
                                                          bottom_points=10),
              {"number": 3, "outcome": "redeal"}, hand_body(4, 0), hand_body(5, 0), hand_body(6, 0), hand_body(7, 0)]
    answers = []

    def check(response):
        assert response.status_code == 201, response.json()
        got = response.json()
        hand = Hand.objects.get(pk=got["hand"]["id"])
        state = state_payload(Match.objects.get(pk=match.pk), User.objects.get(pk=hand.recorded_by_id))
        rendered = json.loads(JSONRenderer().render(_RECORDED_OUT.to_representation({"hand": hand, "state": state})))
        assert got == rendered
        answers.append(response)

    for body in bodies:
        check(post_hand(client, match, body))
    client.force_login(chief)
    check(post_correction(client, match, 7, hand_body(7, 150)))
    assert answers[-1].json()["hand"]["version"] == 2 and answers[2].json()["hand"]["outcome"] == "redeal"

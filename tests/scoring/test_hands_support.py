"""Fixtures and helpers shared by the hands, API and table-page tests (import them from here)."""
import json

import pytest

from tournament import roles


@pytest.fixture
def referee(make_user):
    return make_user(roles.TABLE_REFEREE)


@pytest.fixture
def chief(make_user):
    return make_user(roles.CHIEF_REFEREE)


@pytest.fixture
def match(db, referee):
    """A published shenzhen-community practice match with ``referee`` assigned."""
    from demo.hands import scratch_match

    return scratch_match(referees=[referee])


def hand_body(number, points, declarer=None, **extra):
    """A request body for one hand (last trick kept by the declarers unless given)."""
    body = {"number": number, "trump": "H", "defender_points": points,
            "last_trick": {"by": "declarers", "shape": "single"}, **extra}
    if declarer:
        body["declarer"] = declarer
    return body


def post_hand(client, match, body, **headers):
    return client.post(f"/api/matches/{match.pk}/hands/", data=json.dumps(body),
                       content_type="application/json", **headers)


def post_correction(client, match, number, body):
    return client.post(f"/api/matches/{match.pk}/hands/{number}/correct/", data=json.dumps(body),
                       content_type="application/json")


def get_state(client, match):
    return client.get(f"/api/matches/{match.pk}/state/")

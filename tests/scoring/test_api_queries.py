"""Recording a hand costs a fixed number of SQL queries, however long the match already is."""
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rulings import appeals as appeals_
from scoring import services
from tests.scoring.test_hands_support import hand_body, match, post_hand, referee  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db

# Session and user (2), idempotency record (3 with its savepoint, + its update), match, savepoint, lock
# (with the assignment, the hand allowance and whether the round's clock started; + SQLite's write-lock
# update), permissions (2), hands, rulings with appeals and decisions (3), insert, match update, release:
# 19 on SQLite, 18 on PostgreSQL (before the rework: 26; the round clock took 5 of them); + 2 since the
# request and its stored answer share one transaction (a savepoint and its release).
MAX_QUERIES = 21
POINTS = 120   # the defenders take over without a level: the match never ends, whatever its length


def played(match, referee, hands):
    """``match`` with ``hands`` hands recorded and two rulings (one with an appeal) on the first."""
    from rulings import services as rulings

    for number in range(1, hands + 1):
        services.record_hand(match, referee, number=number, trump="H", defender_points=POINTS,
                             declarer="N" if number == 1 else None)
    ruling = rulings.record_ruling(match, referee, "delay", "NS", hand_number=1)
    rulings.record_ruling(match, referee, "out_of_turn", "EW", hand_number=1)
    appeals_.file_appeal(ruling, referee, "NS", "不服")
    return match


def count_post(client, match, number):
    with CaptureQueriesContext(connection) as ctx:
        response = post_hand(client, match, hand_body(number, POINTS), HTTP_IDEMPOTENCY_KEY=f"k{number}")
    assert response.status_code == 201, response.json()
    return len(ctx.captured_queries)


@pytest.mark.parametrize("hands", [1, 15])
def test_record_a_hand_stays_within_a_fixed_query_bound(client, match, referee, hands,
                                                         django_assert_max_num_queries):
    played(match, referee, hands)
    client.force_login(referee)
    with django_assert_max_num_queries(MAX_QUERIES):
        response = post_hand(client, match, hand_body(hands + 1, POINTS), HTTP_IDEMPOTENCY_KEY="once")
    assert response.status_code == 201, response.json()
    assert response.json()["state"]["next_number"] == hands + 2


def test_query_count_does_not_grow_with_the_match(client, match, referee):
    """The same count after 1 and after 15 hands (a second match for the long one)."""
    from demo.hands import scratch_match

    long_match = played(scratch_match(referees=[referee]), referee, 15)
    played(match, referee, 1)
    client.force_login(referee)
    assert count_post(client, match, 2) == count_post(client, long_match, 16)


def test_the_answer_is_the_replay_after_the_write(client, match, referee):
    """The state returned by the POST equals a fresh read of the state (nothing stale is answered)."""
    played(match, referee, 3)
    client.force_login(referee)
    posted = post_hand(client, match, hand_body(4, 45)).json()["state"]
    assert posted == client.get(f"/api/matches/{match.pk}/state/").json()

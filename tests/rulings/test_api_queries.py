"""Recording a ruling costs a fixed number of SQL queries, however many rulings the match has."""
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rulings import appeals as appeals_
from rulings import services
from rulings.models import Ruling
from scoring import services as scoring

pytestmark = pytest.mark.django_db

# Session and user (2), idempotency record (1, + its savepoint here as the test runs in a transaction:
# 3, + its update), match, roles with assignment (1), savepoint, lock (with the hand allowance), rulings,
# appeals and decisions (2, only for a match with appeals), hands, insert, and for points on a recorded
# hand the match update, release: 17 on PostgreSQL, + 1 on SQLite for the no-op UPDATE that takes its
# write lock (infra.db.lock_row) (before the rework: 19; in production, outside a test transaction and
# without appeals: 12). + 2 since the request and its stored answer share one transaction (its savepoint
# and release here; in production the service's own block becomes that savepoint).
MAX_QUERIES = 19 + (connection.vendor == "sqlite")
BODY = {"code": "failed_throw", "side": "EW", "cards": 1, "role": "defenders", "hand_number": 1}


def with_rulings(match, referee, count):
    """One hand recorded and ``count`` rulings with points on it (the first one appealed)."""
    scoring.record_hand(match, referee, number=1, trump="H", defender_points=120, declarer="N")
    for _ in range(count):
        services.record_ruling(match, referee, **BODY)
    appeals_.file_appeal(Ruling.objects.filter(match=match).order_by("sequence").first(), referee, "EW", "不服")
    return match


def post(client, match, key):
    return client.post(f"/api/matches/{match.pk}/rulings/", data=json.dumps(BODY),
                       content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.parametrize("count", [1, 15])
def test_record_a_ruling_stays_within_a_fixed_query_bound(client, table, count, django_assert_max_num_queries):
    match, users = table
    with_rulings(match, users["referee"], count)
    client.force_login(users["referee"])
    with django_assert_max_num_queries(MAX_QUERIES):
        response = post(client, match, "once")
    assert response.status_code == 201, response.json()
    assert response.json()["sequence"] == count + 1


def test_query_count_does_not_grow_with_the_rulings(client, table, make_match):
    match, users = table
    long_match = make_match()
    long_match.referees.add(users["referee"])
    with_rulings(match, users["referee"], 1)
    with_rulings(long_match, users["referee"], 15)
    client.force_login(users["referee"])
    counts = []
    for target in (match, long_match):
        with CaptureQueriesContext(connection) as ctx:
            assert post(client, target, f"k{target.pk}").status_code == 201
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] <= MAX_QUERIES, counts


def test_the_answer_is_the_ruling_as_the_log_shows_it(client, table):
    """The entry answered by the POST equals the same ruling read back from the match's penalty log."""
    match, users = table
    with_rulings(match, users["referee"], 3)
    client.force_login(users["referee"])
    posted = post(client, match, "fresh").json()
    log = client.get(f"/api/matches/{match.pk}/rulings/").json()
    assert posted == log["rulings"][-1]
    match.refresh_from_db()
    assert log["match"]["levels"] == {"NS": match.ns_level, "EW": match.ew_level}

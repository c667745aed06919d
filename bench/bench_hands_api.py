"""Bench: record-a-hand API round trips per second against the configured database.

Run from the repository root (PostgreSQL is the figure that matters):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/tractor_bench .venv/bin/python bench/bench_hands_api.py [hands]
Creates a throw-away test database (``test_<name>``, dropped at the end), a referee and practice
matches, then POSTs ``hands`` hands (default 500) to ``/api/matches/{id}/hands/`` with Django's test
Client, a logged-in session and an Idempotency-Key each, starting a new match whenever one is won.
Each round trip runs the whole stack: middleware, permissions, lock, full replay, insert, Match update.
Prints requests per second, the median/95th/99th-percentile latency and the SQL queries per request
(counted on every request with Django's CaptureQueriesContext); no assertions.
"""
import json
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
    setup_test_environment,
    teardown_test_environment,
)

# defender points cycling so that matches last a while (both sides climb, take-overs happen)
POINTS = [45, 85, 60, 100, 30, 75, 125, 50]


def make_referee():
    from django.contrib.auth.models import Group, Permission, User
    from django.contrib.contenttypes.models import ContentType

    from tournament import roles

    roles.sync_role_groups(Group, Permission, ContentType)
    user = User.objects.create_user("bench-referee", password="bench")
    user.groups.add(Group.objects.get(name=roles.TABLE_REFEREE))
    return user


def run(total):
    from demo.hands import scratch_match

    referee = make_referee()
    client = Client()
    client.force_login(referee)
    match, number, latencies, matches, queries = None, 0, [], 0, []
    for i in range(total):
        if match is None:
            match, number, matches = scratch_match(referees=[referee]), 0, matches + 1
        number += 1
        body = {"number": number, "trump": "S", "defender_points": POINTS[i % len(POINTS)],
                "last_trick": {"by": "declarers", "shape": "single"}}
        if number == 1:
            body["declarer"] = "N"
        connection.queries_log.clear()  # the log keeps 9,000 entries; counting past that goes wrong
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.post(f"/api/matches/{match.pk}/hands/", data=json.dumps(body),
                                   content_type="application/json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
            latencies.append(time.perf_counter() - started)
        queries.append(len(captured.captured_queries))
        if response.status_code != 201:
            raise SystemExit(f"unexpected answer {response.status_code}: {response.content[:300]!r}")
        if response.json()["state"]["winner"]:
            match = None
    return latencies, matches, queries


def main():
    total = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        latencies, matches, queries = run(total)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
    elapsed = sum(latencies)
    ordered = sorted(latencies)
    print(f"database: {connection.vendor}")
    print(f"record-a-hand API: {total} POSTs over {matches} matches in {elapsed:.2f} s "
          f"= {total / elapsed:,.0f} requests/s")
    print(f"latency: median {statistics.median(ordered) * 1000:.1f} ms, "
          f"p95 {ordered[int(0.95 * (len(ordered) - 1))] * 1000:.1f} ms, "
          f"p99 {ordered[int(0.99 * (len(ordered) - 1))] * 1000:.1f} ms, max {ordered[-1] * 1000:.1f} ms")
    print(f"SQL queries per request: min {min(queries)}, max {max(queries)}, "
          f"mean {statistics.mean(queries):.1f}")


if __name__ == "__main__":
    main()

"""POST hands with 64 clients against gunicorn and PostgreSQL on this machine, beside the bare view.

Creates a scratch PostgreSQL database, seeds one table (match) per client with its own table referee,
starts gunicorn like production (``bench/load.py``) and measures, in the same run and with the same
client loop, the bare Django JSON view (session authentication, CSRF, one INSERT) and the record-a-hand
POST (``/api/matches/{id}/hands/``, each client recording its table's next hand):

* back to back, in alternating phases: requests/s of the median phase and the ratio to the bare view's
  (target >= 0.2, the plain write path's floor);
* once a second per client: p50/p99 latency (target p99 < 60 ms, or within 3x the bare view's p99 on a
  slow day: the bare view under 400 req/s back to back).

The defenders' points (80 and 120: they take the stage without a level) keep every match going however
many hands are played. Every hand has its own Idempotency-Key and every 5th is sent twice on purpose; the
bench then checks that every hand is stored exactly once (each table's hands numbered 1..n, one version
each), and counts the SQL queries of one hand POST (in-process, on a probe table). The database is
dropped at the end.

    .venv/bin/python bench/bench_hands_api.py [--clients 64] [--rounds 3] [--phase-seconds 3] [--paced-seconds 12]
                                              [--workers 2xcores+1] [--threads 1]
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: I001  (bench/load.py, beside this script)

POINTS = [80, 120]


def hand_body(number):
    body = {"number": number, "trump": "SHDC"[number % 4], "defender_points": POINTS[number % 2],
            "last_trick": {"by": "declarers", "shape": "single"}}
    if number == 1:
        body["declarer"] = "N"
    return body


class HandWriter(load.Writer):
    every = []

    def __init__(self, table):
        super().__init__(table)
        self.number = 1
        HandWriter.every.append(self)

    def request(self, i):
        return f"/api/matches/{self.match_id}/hands/", json.dumps(hand_body(self.number)), load.new_key()

    def answered(self, body):
        self.number += 1


def probe_queries(table, count):
    """SQL queries of each of ``count`` hand POSTs on the probe table (in-process, Django's test client)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    match_id, session_key, _csrf = table
    client = Client()
    client.cookies["sessionid"] = session_key
    counts = []
    for number in range(1, count + 1):
        with CaptureQueriesContext(connection) as ctx:
            response = client.post(f"/api/matches/{match_id}/hands/", data=json.dumps(hand_body(number)),
                                   content_type="application/json", HTTP_IDEMPOTENCY_KEY=load.new_key())
        if response.status_code != 201:
            raise SystemExit(f"probe: unexpected answer {response.status_code}: {response.content[:300]!r}")
        counts.append(len(ctx.captured_queries))
    return counts


def stored_once():
    """Every table's current hands are numbered 1..n with one version each, n the hands its client recorded:
    (whether so, what was stored)."""
    from django.db.models import Count, Max

    from scoring.models import Hand

    rows = {r["match_id"]: r for r in Hand.objects.values("match_id").annotate(n=Count("id"), top=Max("number"))}
    recorded = {}
    for writer in HandWriter.every:   # several writers per table over the runs: the last knows the count
        recorded[writer.match_id] = max(recorded.get(writer.match_id, 0), writer.number - 1)
    wanted = sum(recorded.values())
    ok = all(rows.get(m, {"n": 0, "top": 0})["n"] == n and (n == 0 or rows[m]["top"] == n) for m, n in recorded.items())
    return ok, f"stored {sum(rows[m]['n'] for m in recorded if m in rows)} hands, {wanted} recorded"


class Continuing(HandWriter):
    """A client going on at its table where the back-to-back run left it."""

    left = {}

    def __init__(self, table):
        super().__init__(table)
        self.number = Continuing.left.get(self.match_id, 1)


class Tracking(Continuing):
    """Keeps where each table is, for the next run's clients."""

    def answered(self, body):
        super().answered(body)
        Continuing.left[self.match_id] = self.number


def main():
    load.run_write_bench(load.arguments(__doc__, "hands"), "hands", "hand POST", Tracking, probe_queries,
                         stored_once)


if __name__ == "__main__":
    main()

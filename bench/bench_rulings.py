"""POST rulings with 64 clients against gunicorn and PostgreSQL on this machine, beside the bare view.

Creates a scratch PostgreSQL database, seeds one table (match) per client with its own table referee,
starts gunicorn like production (``bench/load.py``) and measures, in the same run and with the same
client loop, the bare Django JSON view (session authentication, CSRF, one INSERT) and the ruling POST:

* back to back (each client sends its next request when the answer arrives), in alternating phases:
  requests/s of the median phase and the ratio to the bare view's (target >= 0.2, the plain write path's floor);
* once a second per client: p50/p99 latency (target p99 < 60 ms, or within 3x the bare view's p99 on a
  slow day: the bare view under 400 req/s back to back).

Every ruling has its own Idempotency-Key and every 5th is sent twice on purpose; the bench then checks
that every ruling sent is stored exactly once, and counts the SQL queries of one ruling POST
(in-process, on a probe table with as many rulings as the others). The database is dropped at the end.

    .venv/bin/python bench/bench_rulings.py [--clients 64] [--rounds 3] [--phase-seconds 3] [--paced-seconds 12]
                                            [--workers 2xcores+1] [--threads 1]
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: I001  (bench/load.py, beside this script)

BODIES = [{"code": "delay", "side": "NS"}, {"code": "failed_throw", "side": "EW", "cards": 1, "role": "defenders"},
          {"code": "out_of_turn", "side": "EW"}, {"code": "exposed_card", "side": "NS"}]


class RulingWriter(load.Writer):
    sent = []   # (match id, key) of every ruling sent, repeats once

    def request(self, i):
        key = load.new_key()
        RulingWriter.sent.append((self.match_id, key))
        return f"/api/matches/{self.match_id}/rulings/", json.dumps(BODIES[i % len(BODIES)]), key


def probe_queries(table, count):
    """SQL queries of each of ``count`` ruling POSTs on the probe table (in-process, Django's test client)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    match_id, session_key, _csrf = table
    client = Client()
    client.cookies["sessionid"] = session_key
    counts = []
    for i in range(count):
        key = load.new_key()
        with CaptureQueriesContext(connection) as ctx:
            response = client.post(f"/api/matches/{match_id}/rulings/", data=json.dumps(BODIES[i % len(BODIES)]),
                                   content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
        if response.status_code != 201:
            raise SystemExit(f"probe: unexpected answer {response.status_code}: {response.content[:300]!r}")
        counts.append(len(ctx.captured_queries))
        RulingWriter.sent.append((match_id, key))
    return counts


def stored_once():
    """Every ruling sent (repeats once) is stored, and no key twice: (whether so, what was stored)."""
    from rulings.models import Ruling

    stored = list(Ruling.objects.values_list("match_id", "idempotency_key"))
    sent = RulingWriter.sent
    once = sorted(stored) == sorted(sent) and len(set(stored)) == len(stored)
    return once, f"stored {len(stored)} of {len(sent)} sent"


def main():
    load.run_write_bench(load.arguments(__doc__, "rulings"), "rulings", "ruling POST", RulingWriter, probe_queries,
                         stored_once)


if __name__ == "__main__":
    main()

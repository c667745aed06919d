"""POST rulings with 64 clients against gunicorn and PostgreSQL on this machine, beside the bare view.

Creates a scratch PostgreSQL database, seeds one table (match) per client with its own table referee,
starts gunicorn like production (``bench/load.py``) and measures, in the same run and with the same
client loop, the bare Django JSON view (session authentication, CSRF, one INSERT) and the ruling POST:

* back to back (each client sends its next request when the answer arrives), in alternating phases:
  requests/s of the median phase and the ratio to the bare view's (target >= 0.5);
* once a second per client: p50/p99 latency (target p99 < 60 ms).

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


def main():
    args = load.arguments(__doc__, "rulings")

    with load.Server("rulings", args.workers, args.threads) as server:
        tables = load.seed_tables(args.clients + 1)
        probe, tables = tables[-1], tables[:-1]
        server.start()
        load.warm_up(server.port, tables)
        figs, errors = load.measure(server, tables, RulingWriter, rounds=args.rounds, phase_seconds=args.phase_seconds,
                                    paced_seconds=args.paced_seconds, repeat_every=5)
        queries = probe_queries(probe, args.probe)
        met = load.report("ruling POST", figs, args.clients, args.workers, args.threads)
        from rulings.models import Ruling

        stored = list(Ruling.objects.values_list("match_id", "idempotency_key"))
        sent = RulingWriter.sent
        once = sorted(stored) == sorted(sent) and len(set(stored)) == len(stored)
        print(f"SQL queries per ruling POST (probe table, rulings 1..{len(queries)}): min {min(queries)}, "
              f"max {max(queries)}")
        print(f"errors: {len(errors)}{' ' + repr(errors[:3]) if errors else ''}; stored {len(stored)} of "
              f"{len(sent)} sent; every ruling stored exactly once: {'yes' if once else 'NO'}")
    if errors or not once or not met:
        raise SystemExit(1)


if __name__ == "__main__":
    main()

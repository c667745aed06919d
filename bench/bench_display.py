"""Hall display load: 500 simulated displays polling the round clock's JSON endpoint.

Runs in-process with Django's test Client against a throw-away test database (nothing touches your
data). Every display polls ROUNDS times; every INVALIDATE_EVERY polls a hand record is simulated by
invalidating the shared cache, as the scoring layer does. Prints polls/s, p50/p99 latency and SQL
queries per poll (all polls, and the worst warm poll).

    .venv/bin/python bench/bench_display.py [displays] [rounds] [tables]
"""
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_VAR_DIR", str(Path(__file__).resolve().parent.parent / "var" / "bench"))

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment, teardown_test_environment  # noqa: E402

DISPLAYS = int(sys.argv[1]) if len(sys.argv) > 1 else 500
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
TABLES = int(sys.argv[3]) if len(sys.argv) > 3 else 40
INVALIDATE_EVERY = 250


def build_round():
    """A published shenzhen-community round with TABLES tables and a running clock."""
    import datetime as dt

    from django.contrib.auth.models import User

    from scoring.profile_store import latest_profile
    from tournament.clocks import services as clock_services
    from tournament.models import Event, Match, Pair, Player, Round, Stage, Unit

    profile = latest_profile("shenzhen-community")
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug="bench", name="压力测试", start_date=day, end_date=day, profile=profile,
                                 published=True)
    unit = Unit.objects.create(event=event, name="单位")
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="小组赛")
    rnd = Round.objects.create(stage=stage, number=1)
    for table in range(1, TABLES + 1):
        pairs = []
        for side in "AB":
            a = Player.objects.create(event=event, unit=unit, name=f"{table}{side}1", gender="M")
            b = Player.objects.create(event=event, unit=unit, name=f"{table}{side}2", gender="M")
            pairs.append(Pair.objects.create(event=event, unit=unit, player1=a, player2=b, name=f"{table}{side}"))
        Match.objects.create(round=rnd, table=table, ns=pairs[0], ew=pairs[1], profile=profile, status="playing")
    chief = User.objects.create_user("bench-chief")
    clock_services.start_clock(rnd, chief)
    return rnd


def main():
    from tournament.competition.display_cache import invalidate as invalidate_display

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        cache.clear()
        rnd = build_round()
        url = f"/api/rounds/{rnd.pk}/clock/"
        clients = [Client() for _ in range(DISPLAYS)]
        latencies, queries, warm_queries = [], [], []
        polls = 0
        started = time.perf_counter()
        for _ in range(ROUNDS):
            for client in clients:
                if polls % INVALIDATE_EVERY == 0:
                    invalidate_display(rnd.pk)
                    cold = True
                else:
                    cold = False
                with CaptureQueriesContext(connection) as ctx:
                    t0 = time.perf_counter()
                    response = client.get(url)
                    latencies.append(time.perf_counter() - t0)
                assert response.status_code == 200, response.status_code
                queries.append(len(ctx.captured_queries))
                if not cold:
                    warm_queries.append(len(ctx.captured_queries))
                polls += 1
        elapsed = time.perf_counter() - started
        latencies.sort()
        p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
        print(f"displays={DISPLAYS} polls={polls} tables={TABLES} database={connection.vendor} "
              f"cache={settings.CACHES['default']['BACKEND'].rsplit('.', 1)[-1]}")
        print(f"polls/s: {polls / elapsed:.0f}")
        print(f"latency p50: {p(0.50):.2f} ms  p99: {p(0.99):.2f} ms  max: {latencies[-1] * 1000:.2f} ms")
        print(f"SQL queries per poll: mean {statistics.mean(queries):.3f}, warm max {max(warm_queries)}, "
              f"cold (cache rebuilt, every {INVALIDATE_EVERY} polls) max {max(queries)}")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()


if __name__ == "__main__":
    main()

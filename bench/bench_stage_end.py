"""The end of a stage (issue 31 item 1): the standings, bracket and units pages and the standings of every group,
cold, after round 3 and with the group stage fully played; the cost must not grow with the results.

The event is bench_big_event's (groups of 64 pairs, 63 rounds scheduled at the draw, rounds 1-3 played, round 4
half played, a 128-entry knock-out waiting for the qualifiers), at ``--pairs`` pairs (4,096 unless told: 64
groups; 256 and 1,024 give 4 and 16 groups). Its results are written in bulk, so the bench keeps the group
standings as the result service does (``group_standings.keep_groups``, timed: the writer's cost per group). Then:

1. **after round 3**: each page cold (rendered after a change of the event's pages: a new page-cache generation),
   the best of seven (the ratio's figure: the least disturbed by a shared machine) and the median, and its SQL
   queries; the standings of every group (``group_standings.event_standings``, no page);
2. every group match finished (a bulk UPDATE, then VACUUM ANALYZE: the bulk write leaves a dead copy of
   every row that a day of single writes would not), each group ranked again and kept as the result service would,
   the knock-out given its qualifiers (``results.advance_bracket``);
3. **the group stage fully played**: the same figures again.

Targets: each figure with the stage played at most 1.5 times the same after round 3, in no more queries but
one (once its qualifiers are known, a knock-out reads which of its entrants have left the event: one query
at any size; before, it has no entrant to ask about). The
absolute times are printed beside them (a shared machine's speed drifts; issue 31 asks under 300 ms on a
machine whose bare Django view does 400 req/s: that yardstick is measured by the write benches through
gunicorn, not in-process here). The standings page is the final ranking (places and awards). Exits 1 on a miss.
Run from the repo root: .venv/bin/python bench/bench_stage_end.py [--pairs 1024]
"""
import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/tractor_bench_stage_end")

import bench_big_event as big  # noqa: E402  (sets up Django, the scratch database's settings and the cache)
from django.db import connection  # noqa: E402
from django.db.models import F  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from tournament import pagecache  # noqa: E402
from tournament.competition import group_standings, results  # noqa: E402
from tournament.models import Event, Group, Match, Stage  # noqa: E402

PAGES = ("standings/", "bracket/", "units/")
RATIO_TARGET = 1.5
REPEAT = 7


def figures(event) -> dict:
    """name -> (best cold ms, median cold ms, queries): each page cold and the standings of every group."""
    client = Client()
    out = {}
    for page in PAGES:
        runs = []
        for _ in range(REPEAT):
            pagecache.changed(event.pk)
            ms, queries, _size = big.timed_get(client, f"/events/{event.slug}/{page}")
            runs.append((ms, queries))
        out[page] = (min(ms for ms, _ in runs), statistics.median(ms for ms, _ in runs), max(q for _, q in runs))
    runs = []
    for _ in range(REPEAT):
        fresh = Event.objects.select_related("profile").get(pk=event.pk)
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            group_standings.event_standings(fresh)
            runs.append(((time.perf_counter() - start) * 1000, len(queries)))
    out["standings of every group"] = (min(ms for ms, _ in runs), statistics.median(ms for ms, _ in runs),
                                       max(q for _, q in runs))
    return out


def keep_all(event) -> float:
    """Rank and keep every group as the result service does; returns ms per group."""
    ids = list(Group.objects.filter(stage__event=event).values_list("pk", flat=True))
    fresh = Event.objects.select_related("profile").get(pk=event.pk)
    start = time.perf_counter()
    for gid in ids:
        group_standings.keep_groups(fresh, [gid])
    return (time.perf_counter() - start) * 1000 / len(ids)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=4096, help="pairs, in groups of 64 (256, 1024, 4096)")
    n_groups = max(1, parser.parse_args().pairs // big.GROUP_SIZE)
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        started = time.perf_counter()
        event, _entry, n_matches = big.build_event(n_groups)
        decided = Match.objects.filter(round__stage__event=event, group__isnull=False,
                                       status__in=Match.DECIDED).count()
        print(f"event: {n_groups * big.GROUP_SIZE} pairs, {n_groups} groups of {big.GROUP_SIZE}, {n_matches} group "
              f"matches scheduled (built in {time.perf_counter() - started:.0f} s)")
        Client().get("/")  # the URLconf, middleware and base templates loaded once, as on a running server
        event = Event.objects.select_related("profile").get(pk=event.pk)
        per_group = keep_all(event)
        early = figures(event)
        ladder = event.profile.data["ladder"]["levels"]
        Match.objects.filter(round__stage__event=event, group__isnull=False).exclude(
            status=Match.Status.FINISHED).update(status=Match.Status.FINISHED, winner_id=F("ns_id"),
                                                 ns_level=ladder[-1], ew_level=ladder[3])
        with connection.cursor() as cursor:   # the bulk UPDATE left a dead copy of every row, which a day of
            cursor.execute("VACUUM ANALYZE tournament_match")   # single writes and autovacuum would not
        per_group_full = keep_all(event)
        for knockout in Stage.objects.filter(event=event, kind=Stage.Kind.ELIMINATION):
            results.advance_bracket(knockout)
        full = figures(event)
        print(f"results ranked: {decided} after round 3, {n_matches} with the stage played; the result service "
              f"ranks and keeps a group in {per_group:.0f} ms after round 3, {per_group_full:.0f} ms played out "
              f"(once per change of one of its results)")
        print(f"cold, best of {REPEAT} (median)   {'round 3 ms':>15}{'played ms':>15}{'ratio':>7}{'queries':>10}   "
              f"target: ratio <= {RATIO_TARGET}, queries not more (+1: the bracket's entrants)")
        missed = []
        for name in early:
            (a, ma, qa), (b, mb, qb) = early[name], full[name]
            ratio = b / a if a else float("inf")
            ok = ratio <= RATIO_TARGET and qb <= qa + 1
            print(f"{name:<30}{f'{a:.0f} ({ma:.0f})':>15}{f'{b:.0f} ({mb:.0f})':>15}{ratio:>7.2f}{f'{qa} / {qb}':>10}   "
                  f"{'ok' if ok else 'MISSED'}")
            if not ok:
                missed.append(name)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    if missed:
        print("MISSED:", ", ".join(missed))
        sys.exit(1)


if __name__ == "__main__":
    main()

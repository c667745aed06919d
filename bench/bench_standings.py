"""Standings and crosstables of 1,024 pairs in 64 groups of 16, every match played:
print the SQL query count and the time (target: at most 10 queries, under 0.3 s).

Builds the event with bulk_create in a scratch test database (created and destroyed here), so it
never touches the real data. Run from the repo root: .venv/bin/python bench/bench_standings.py
"""
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_VAR_DIR", tempfile.mkdtemp(prefix="bench-standings-"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

N_GROUPS, GROUP_SIZE = 64, 16


def build_event():
    """The event, its pairs, one round-robin stage of 64 groups, and every match finished."""
    import datetime as dt
    import random

    from scoring.profile_store import latest_profile
    from tournament.engines.pairings import round_robin
    from tournament.models import Event, Group, GroupEntry, Match, Pair, Player, Round, Stage, Unit

    rng = random.Random(7)
    profile = latest_profile("company-league")
    ladder = profile.data["ladder"]["levels"]
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug="bench", name="bench", start_date=day, end_date=day, profile=profile)
    units = Unit.objects.bulk_create([Unit(event=event, name=f"U{i}") for i in range(100)])
    n = N_GROUPS * GROUP_SIZE
    players = Player.objects.bulk_create(
        [Player(event=event, unit=units[i // 2 % 100], name=f"P{i}", gender="M") for i in range(2 * n)])
    pairs = Pair.objects.bulk_create(
        [Pair(event=event, unit=units[i % 100], player1=players[2 * i], player2=players[2 * i + 1], name=f"Pair{i}")
         for i in range(n)])
    stage = Stage.objects.create(event=event, order=1, kind=Stage.Kind.ROUND_ROBIN, name="小组赛")
    groups = Group.objects.bulk_create([Group(stage=stage, name=f"G{g}", order=g + 1) for g in range(N_GROUPS)])
    GroupEntry.objects.bulk_create([GroupEntry(group=groups[g], pair=pairs[g * GROUP_SIZE + k], position=k + 1)
                                    for g in range(N_GROUPS) for k in range(GROUP_SIZE)])
    rounds = Round.objects.bulk_create([Round(stage=stage, number=r + 1) for r in range(GROUP_SIZE - 1)])
    matches = []
    for g, group in enumerate(groups):
        members = [p.pk for p in pairs[g * GROUP_SIZE:(g + 1) * GROUP_SIZE]]
        for r, games in enumerate(round_robin(members)):
            for t, (a, b) in enumerate(games):
                winner = a if rng.random() < 0.5 else b
                loser_level = rng.choice(ladder[:-1])
                top = ladder[-1]
                matches.append(Match(round=rounds[r], group=group, table=g * 8 + t + 1, ns_id=a, ew_id=b,
                                     profile=profile, status=Match.Status.FINISHED, winner_id=winner,
                                     ns_level=top if winner == a else loser_level,
                                     ew_level=top if winner == b else loser_level))
    Match.objects.bulk_create(matches, batch_size=2000)
    return event, len(matches)


def crosstables(result):
    return [group.cross for stage in result for group in stage.groups]


def main():
    from tournament.competition.group_standings import event_standings
    from tournament.models import Event

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        _, n_matches = build_event()
        event = Event.objects.get(slug="bench")  # fresh: the profile is not cached
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            result = event_standings(event)
            crosstables(result)  # built when first read (the group tables page reads them)
            elapsed = time.perf_counter() - start
        warm = []
        for _ in range(3):
            event = Event.objects.get(slug="bench")
            start = time.perf_counter()
            crosstables(event_standings(event))
            warm.append(time.perf_counter() - start)
        groups = sum(len(s.groups) for s in result)
        cells = sum(len(g.cross) ** 2 for s in result for g in s.groups)
        print(f"standings + crosstables: {groups} groups, {n_matches} matches, {cells} crosstable cells")
        print(f"SQL queries: {len(queries)} (target <= 10)")
        print(f"time, first call: {elapsed * 1000:.1f} ms; best of 3 more: {min(warm) * 1000:.1f} ms (target < 300 ms)")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()

"""The round's shared display data (hall display, live.json, the chief's overview) reads each table's kept
engine state instead of replaying it (issue 31 item 2: the display is rebuilt after every hand at any table,
and replaying 64 tables took 250-450 ms). What it shows must still be the replay of the records."""
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rulings import services as rulings_services
from rulings.adjustments import match_state as replayed_state
from scoring import snapshots
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, play, tables_of  # noqa: F401
from tournament.clocks import display


def rows_by_match(rnd):
    return {row["match_id"]: row for row in display.build_display_data(rnd.pk)["tables"]}


def test_the_display_shows_the_replay_with_the_same_queries_for_any_number_of_tables(db, chief):  # noqa: F811
    small, big = make_round(tables=2), make_round(tables=12)
    for rnd in (small, big):
        for match in tables_of(rnd)[:-1]:   # the last table has no record at all
            play(match, chief, defender_points=20)
            play(match, chief, defender_points=95)
    first = tables_of(big)[0]
    rulings_services.record_ruling(first, chief, "late", "NS", minutes=3, hand_number=3)
    snapshots.forget([tables_of(big)[1].pk])   # no kept state: that table is replayed
    counts = []
    for rnd in (small, big):
        with CaptureQueriesContext(connection) as ctx:
            rows = rows_by_match(rnd)
        counts.append(len(ctx.captured_queries))
        for match in tables_of(rnd):
            row = rows[match.pk]
            assert row["recorded"] == replayed_state(match).hand_count, match.table
            assert (row["ns_level"], row["ew_level"], row["status"]) == (match.ns_level, match.ew_level,
                                                                         match.status), match.table
    assert rows_by_match(big)[tables_of(big)[-1].pk]["recorded"] == 0
    assert counts[1] <= counts[0] + 2, counts   # the forgotten table's two reads, nothing per table

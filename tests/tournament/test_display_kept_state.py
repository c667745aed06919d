"""The round's shared display data (hall display, live.json, the chief's overview) reads each table's kept
engine state instead of replaying it (issue 31 item 2: the display is rebuilt after every hand at any table,
and replaying 64 tables took 250-450 ms). What it shows must still be the replay of the records."""
import datetime as dt

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from infra import clock
from rulings import services as rulings_services
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, play, tables_of  # noqa: F401
from tournament.clocks import display
from tournament.competition import display_cache
from tournament.models import Match
from tournament.records import snapshots
from tournament.records.adjustments import match_state as replayed_state


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


def test_a_rebuild_after_a_hand_reads_the_engine_state_of_that_table_only(db, chief):  # noqa: F811
    rnd = make_round(tables=6)
    for match in tables_of(rnd):
        play(match, chief, defender_points=20)
    rows_by_match(rnd)   # every table's hands recorded cached
    moved = tables_of(rnd)[2]
    play(moved, chief, defender_points=95)
    with CaptureQueriesContext(connection) as ctx:
        rows = rows_by_match(rnd)
    snapshot_reads = [q["sql"] for q in ctx.captured_queries if '"scoring_matchsnapshot"."data"' in q["sql"]]
    assert len(snapshot_reads) == 1 and f"IN ({moved.pk})" in snapshot_reads[0], snapshot_reads
    for match in tables_of(rnd):
        assert rows[match.pk]["recorded"] == replayed_state(match).hand_count == (2 if match == moved else 1)
    snapshots.forget([moved.pk])   # a kept state dropped (a row written elsewhere): read again, not trusted
    with CaptureQueriesContext(connection) as ctx:
        assert rows_by_match(rnd)[moved.pk]["recorded"] == 2
    assert sum('"scoring_matchsnapshot"."data"' in q["sql"] for q in ctx.captured_queries) == 1


def polled(rnd):
    return {row["match_id"]: row for row in display.display_data(rnd.pk)["tables"]}


def test_after_a_hand_the_rebuild_reads_the_tables_changed_since_the_last_one(db, chief, django_capture_on_commit_callbacks):  # noqa: E501,F811
    """Issue 31 item 2 at 2,048 tables: a hand at one table re-reads the tables changed lately, keeps the
    other rows of the last copy, and shows the same as a whole rebuild."""
    rnd = make_round(tables=5)
    for match in tables_of(rnd):
        play(match, chief, defender_points=20)
    polled(rnd)   # a whole rebuild
    moved = tables_of(rnd)[3]
    old = timezone.now() - dt.timedelta(seconds=60)   # the other tables last changed a minute ago
    Match.objects.filter(round=rnd).exclude(pk=moved.pk).update(changed_at=old)
    with django_capture_on_commit_callbacks(execute=True):
        play(moved, chief, defender_points=95)
    with CaptureQueriesContext(connection) as ctx:
        rows = polled(rnd)
    reads = [q["sql"] for q in ctx.captured_queries if 'FROM "tournament_match"' in q["sql"]]
    assert any('"changed_at" >=' in sql for sql in reads), reads   # the changed tables only
    assert rows == {row["match_id"]: row for row in display.build_display_data(rnd.pk)["tables"]}
    assert rows[moved.pk]["recorded"] == 2 and [r["match_id"] for r in display.display_data(rnd.pk)["tables"]] == [
        m.pk for m in tables_of(rnd)]
    display_cache.invalidate(rnd.pk)   # a round change (the clock, a closure): every table read again
    with CaptureQueriesContext(connection) as ctx:
        polled(rnd)
    assert not any('"changed_at" >=' in q["sql"] for q in ctx.captured_queries)


def test_a_copy_older_than_the_safety_net_is_rebuilt_whole(db, chief, django_capture_on_commit_callbacks):  # noqa: F811
    rnd = make_round(tables=2)
    polled(rnd)
    display_cache.tables_changed(rnd.pk)
    later = timezone.now() + dt.timedelta(seconds=display.DISPLAY_CACHE_SECONDS + 1)
    with clock.frozen(later), CaptureQueriesContext(connection) as ctx:
        polled(rnd)
    assert not any('"changed_at" >=' in q["sql"] for q in ctx.captured_queries)


def test_a_side_still_to_be_decided_is_named_in_words_on_the_display(db):
    rnd = make_round(tables=1)
    (match,) = tables_of(rnd)
    Match.objects.filter(pk=match.pk).update(ns=None, ns_source="W:R2-M1", status=Match.Status.PENDING)
    row = display.live_clock(display.display_data(rnd.pk))["tables"][0]
    assert row["ns"] == "第2轮第1场胜者" and display.round_overview(rnd)[0]["ns"] == "第2轮第1场胜者"

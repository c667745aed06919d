"""Round clocks in the database: events with who and when, the announcement per profile, the last
allowed hand, per-table extra time, exactly-once firing, task scheduling, the display budget, pages."""
import datetime as dt
import threading

import pytest

from common.errors import UserError
from infra.appendonly import AppendOnlyError
from tests.conftest import wait_for
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, play, tables_of  # noqa: F401
from tournament.clocks import display as display_
from tournament.clocks import services as cs
from tournament.competition import display_cache, results
from tournament.models import ClockEvent, ClockFiring, HandAllowance, Match


@pytest.fixture
def sent(monkeypatch):
    """Capture the ETA tasks sent and the ids revoked instead of talking to a broker."""
    log = {"sent": [], "revoked": []}

    def send_task(name, args, eta, task_id):
        assert name == cs.FIRE_ROUND_CLOCK
        log["sent"].append((args[1], eta, task_id))

    monkeypatch.setattr(cs.celery_app, "send_task", send_task)
    monkeypatch.setattr(cs, "_revoke", lambda ids: log["revoked"].extend(ids))
    return log


# --- the clock records ------------------------------------------------------------------------------

def test_changes_are_append_only_events_with_who_and_when(db, frozen_now, chief):
    rnd = make_round()
    cs.start_clock(rnd, chief)
    frozen_now.advance(minutes=20)
    cs.pause_clock(rnd, chief, note="争议")
    frozen_now.advance(minutes=5)
    cs.resume_clock(rnd, chief)
    cs.add_time(rnd, chief, 3)
    events = list(ClockEvent.objects.filter(round=rnd))
    assert [(e.kind, e.seconds, e.created_by) for e in events] == [
        ("start", 0, chief), ("pause", 0, chief), ("resume", 0, chief), ("add", 180, chief)]
    assert events[1].at == events[0].at + dt.timedelta(minutes=20) and events[1].note == "争议"
    with pytest.raises(AppendOnlyError):
        events[0].save()
    with pytest.raises(AppendOnlyError):
        ClockEvent.objects.filter(round=rnd).update(seconds=1)
    frozen_now.advance(minutes=10)
    # Derived from the stored events only: 90 + 3 minutes long, 30 minutes run.
    data = display_.live_clock(display_.build_display_data(rnd.pk))
    assert data["status"] == "running" and data["remaining_seconds"] == 63 * 60


def test_refused_change_says_why_in_chinese(db, frozen_now, chief):
    rnd = make_round()
    with pytest.raises(ValueError, match="尚未开始"):
        cs.pause_clock(rnd, chief)
    with pytest.raises(ValueError, match="整数分钟"):
        cs.add_time(rnd, chief, "五")
    assert not ClockEvent.objects.exists()


def test_organiser_overrides_for_event_and_round(db, frozen_now, chief):
    rnd = make_round("company-league")
    with pytest.raises(UserError, match="比赛时限"):
        cs.start_clock(rnd, chief)
    cs.set_clock_settings(rnd.stage.event, match_minutes=50)
    assert cs.clock_rule(rnd).match_seconds == 3000
    cs.set_clock_settings(rnd, match_minutes=40, announce_enabled=True, announce_minutes_before_end=5,
                          hands_after=2)
    assert cs.clock_rule(rnd) == cs.clocks.ClockRule(2400, 300, 2, False)
    with pytest.raises(UserError, match="宣布时间"):
        cs.set_clock_settings(rnd, announce_minutes_before_end=45)


# --- the announcement and the last allowed hand -------------------------------------------------------

def test_shenzhen_announcement_hand_in_play_does_not_count_then_three_more(db, frozen_now, chief):
    rnd = make_round("shenzhen-community", tables=3)
    t1, t2, t3 = tables_of(rnd)
    cs.start_clock(rnd, chief)
    for _ in range(2):
        play(t2, chief)
    for _ in range(5):
        play(t3, chief)
    frozen_now.advance(minutes=59)
    assert cs.fire_due(rnd.pk) == [] and cs.hands_left(t1) is None
    frozen_now.advance(minutes=1)
    fired = cs.fire_due(rnd.pk)
    assert fired[0] == "announce" and len(fired) == 4
    allowances = {a.match_id: (a.hand_in_play, a.last_hand) for a in HandAllowance.objects.all()}
    assert allowances == {t1.pk: (1, 4), t2.pk: (3, 6), t3.pk: (6, 9)}
    assert [cs.hands_left(t) for t in (t1, t2, t3)] == [4, 4, 4]


def test_match_ends_at_its_last_allowed_hand_and_takes_no_more(db, frozen_now, chief):
    rnd = make_round("shenzhen-community", tables=1)
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief)
    play(table, chief, defender_points=40)          # NS declare and go up 2: 2 → 4
    frozen_now.advance(minutes=60)
    cs.fire_due(rnd.pk)
    assert cs.hands_left(table) == 4                 # hand 2 in play, then 3, 4, 5
    for left in (3, 2, 1):
        assert play(table, chief).over is False     # 80 points: the stage changes, no levels
        assert cs.hands_left(table) == left
    verdict = play(table, chief)
    table.refresh_from_db()
    assert verdict[:3] == (True, "NS", "hands")
    assert table.status == Match.Status.FINISHED and table.winner_id == table.ns_id
    assert cs.hands_left(table) == 0
    with pytest.raises(ValueError, match="副数"):
        play(table, chief)


def test_two_deck_standard_allows_one_more_hand(db, frozen_now, chief):
    rnd = make_round("two-deck-standard", tables=1)
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief)
    play(table, chief)
    play(table, chief)
    frozen_now.advance(minutes=50)
    cs.fire_due(rnd.pk)
    allowance = HandAllowance.objects.get(match=table)
    assert (allowance.hand_in_play, allowance.last_hand) == (3, 4)
    assert cs.hands_left(table) == 2
    play(table, chief)
    assert play(table, chief).how == "hands"


def test_union_games_has_no_announcement_and_ends_at_time(db, frozen_now, chief):
    rnd = make_round("union-games", tables=1)
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief)
    play(table, chief, defender_points=40)
    frozen_now.advance(minutes=100)
    assert cs.fire_due(rnd.pk) == [] and cs.hands_left(table) is None
    frozen_now.advance(minutes=20)
    assert cs.fire_due(rnd.pk) == ["end", f"table:{table.pk}"]
    table.refresh_from_db()
    assert table.status == Match.Status.FINISHED and table.winner_id == table.ns_id
    assert HandAllowance.objects.get(match=table).reason == "time_up"


def test_passing_the_top_ends_the_match_whatever_the_clock():
    class State:
        winner, hand_count = "EW", 7

        def winner_at_time(self):
            return "NS"

    assert results.decide(State(), None, None) == results.Verdict(True, "EW", "top")
    State.winner = None
    assert results.decide(State(), None, None) == results.Verdict(False)
    allowance = HandAllowance(reason="announce", hand_in_play=5, last_hand=7)
    assert results.decide(State(), None, allowance)[:3] == (True, "NS", "hands")


def test_table_extra_time_delays_that_tables_announcement(db, frozen_now, chief, sent):
    rnd = make_round(tables=2)
    t1, t2 = tables_of(rnd)
    cs.start_clock(rnd, chief)
    frozen_now.advance(minutes=30)
    cs.grant_table_time(t2, chief, 10, note="争议处理")
    frozen_now.advance(minutes=30)
    assert cs.fire_due(rnd.pk) == ["announce", f"table:{t1.pk}"]
    assert cs.hands_left(t2) is None
    data = display_.live_clock(display_.build_display_data(rnd.pk))
    row = next(t for t in data["tables"] if t["match_id"] == t2.pk)
    assert row["extra_seconds"] == 600 and row["remaining_seconds"] == 40 * 60
    frozen_now.advance(minutes=10)
    assert cs.fire_due(rnd.pk) == [f"table:{t2.pk}"]
    assert cs.hands_left(t2) == 4


def test_late_task_fires_before_a_hand_is_counted(db, frozen_now, chief):
    """A hand recorded after the announcement moment but before any task ran: the hand in play is still
    the one in play at the announcement, because hands_left fires what is due first."""
    rnd = make_round(tables=1)
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief)
    frozen_now.advance(minutes=61)
    play(table, chief)
    assert HandAllowance.objects.get(match=table).hand_in_play == 1
    assert cs.hands_left(table) == 3


# --- lock order: RoundClock, then Match -----------------------------------------------------------------

def _roundclock_writes(queries):
    """The captured SQL that locks or writes the RoundClock row."""
    return [q["sql"] for q in queries if "tournament_roundclock" in q["sql"]
            and (q["sql"].lstrip().upper().startswith("UPDATE") or "FOR UPDATE" in q["sql"].upper())]


def test_the_hand_path_never_locks_the_round_clock(db, frozen_now, chief, monkeypatch):
    """While a hand holds its Match lock it fixes only its own table's allowance: no RoundClock lock and no
    round firing (left to the task and the sweep), so it cannot wait for a worker holding the RoundClock."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring import services as scoring

    rnd = make_round(tables=1)
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief)
    play(table, chief)
    frozen_now.advance(minutes=61)                 # the announcement is due; no task has run
    monkeypatch.setattr(cs, "fire_due", lambda *a, **k: pytest.fail("the hand path called fire_due"))
    with CaptureQueriesContext(connection) as ctx:
        scoring.record_hand(table, chief, number=2, trump="S", defender_points=80)
    assert _roundclock_writes(ctx.captured_queries) == []
    assert not ClockFiring.objects.filter(round=rnd).exists()
    assert HandAllowance.objects.get(match=table).hand_in_play == 2   # the hand in play at the announcement
    monkeypatch.undo()
    assert cs.fire_due(rnd.pk) == ["announce"]     # the task fires the round; the table is fixed already
    assert HandAllowance.objects.get(match=table).hand_in_play == 2


def _another_backend_waits_for_a_lock(connection, timeout=10.0) -> bool:
    """True once another session of this database waits for a lock (read in ``connection``'s transaction, whose
    view of the sessions is kept until it ends unless cleared)."""
    def waiting():
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute("SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
                           " WHERE NOT l.granted AND a.datname = current_database() AND l.pid <> pg_backend_pid()")
            return cursor.fetchone()[0]
    return bool(wait_for(waiting, timeout=timeout, interval=0.05))


def test_the_worker_locks_a_tables_match_only_when_it_is_due(db, frozen_now, chief):
    """A sweep runs every few seconds: before the announcement it locks no Match row a hand would wait for; at it,
    the due tables' rows, in id order."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    rnd = make_round(tables=3)
    cs.start_clock(rnd, chief)
    frozen_now.advance(minutes=30)

    def match_locks():
        with CaptureQueriesContext(connection) as ctx:
            fired = cs.fire_due(rnd.pk)
        return fired, [q["sql"] for q in ctx.captured_queries
                       if 'FROM "tournament_match"' in q["sql"] and "FOR UPDATE" in q["sql"].upper()]

    assert match_locks() == ([], [])
    frozen_now.advance(minutes=31)
    fired, locks = match_locks()
    assert fired == ["announce", *(f"table:{t.pk}" for t in tables_of(rnd))] and len(locks) == 1
    assert 'ORDER BY "tournament_match"."id" ASC' in locks[0]


@pytest.mark.parametrize("worker_first", [False, True], ids=["referee-writes-first", "worker-writes-first"])
def test_a_referee_and_the_worker_do_not_deadlock(transactional_db, frozen_now, make_user, monkeypatch,
                                                   worker_first):
    """PostgreSQL: the referee holds the table's Match row and fixes its allowance while the worker, holding the
    RoundClock, fires the round. Before, the referee then waited for the RoundClock; later the worker wrote
    the table's allowance without the Match row, its insert waited for that row (the foreign-key check)
    holding the allowance's unique key, the referee's insert of the same allowance waited for the worker, and
    PostgreSQL killed one of the two as a deadlock. ``worker_first``: the referee writes only once the worker
    waits for a lock (which, before, was that foreign-key check)."""
    from django.db import connection, connections

    if connection.vendor != "postgresql":
        pytest.skip("row locks, and so this deadlock, exist on PostgreSQL only; SQLite serialises writers")
    from scoring import services as scoring

    chief_user = make_user("chief_referee")
    rnd = make_round(tables=1)
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief_user)
    play(table, chief_user)
    frozen_now.advance(minutes=61)
    referee_holds, worker_holds = threading.Event(), threading.Event()
    real_lock, real_hands_left = cs._lock, cs.hands_left

    def lock_then_signal(round_id, create=False):
        row = real_lock(round_id, create)
        worker_holds.set()
        return row

    def hands_left_once_the_worker_holds(match, **kwargs):   # called with the Match row locked
        referee_holds.set()
        assert worker_holds.wait(10)
        if worker_first:
            assert _another_backend_waits_for_a_lock(connections["default"])
        return real_hands_left(match, **kwargs)

    monkeypatch.setattr(cs, "_lock", lock_then_signal)
    monkeypatch.setattr(cs, "hands_left", hands_left_once_the_worker_holds)
    errors, fired = [], []

    def in_thread(work):
        def run():
            try:
                work()
            except Exception as exc:  # noqa: BLE001
                errors.append(exc)
            finally:
                connections.close_all()
        return threading.Thread(target=run)

    def worker():
        assert referee_holds.wait(10)
        fired.extend(cs.fire_due(rnd.pk, via="task"))

    threads = [in_thread(lambda: scoring.record_hand(table, chief_user, number=2, trump="S", defender_points=80)),
               in_thread(worker)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert errors == [] and fired == ["announce"]
    assert HandAllowance.objects.get(match=table).hand_in_play == 2


# --- exactly once --------------------------------------------------------------------------------------

def test_sweep_fires_a_missed_announcement_exactly_once(db, frozen_now, chief):
    rnd = make_round(tables=2)
    cs.start_clock(rnd, chief)
    frozen_now.advance(minutes=75)           # the ETA task was lost
    assert cs.sweep() == {rnd.pk: ["announce", *(f"table:{t.pk}" for t in tables_of(rnd))]}
    assert cs.sweep() == {}
    assert cs.fire_due(rnd.pk) == []
    assert ClockFiring.objects.filter(round=rnd).count() == 1 and HandAllowance.objects.count() == 2
    frozen_now.advance(minutes=20)
    assert cs.sweep() == {rnd.pk: ["end"]}
    assert cs.running_round_ids() == []


def test_concurrent_sweeps_fire_once(transactional_db, frozen_now, make_user):
    chief_user = make_user("chief_referee")
    rnd = make_round(tables=3)
    cs.start_clock(rnd, chief_user)
    frozen_now.advance(minutes=61)
    results, errors = [], []
    barrier = threading.Barrier(4)

    def run():
        from django.db import connections

        try:
            barrier.wait()
            results.append(cs.sweep())
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sum(1 for r in results if r) == 1
    assert ClockFiring.objects.filter(round=rnd, kind="announce").count() == 1
    assert HandAllowance.objects.filter(match__round=rnd).count() == 3


def test_unique_constraint_refuses_a_second_firing(db, frozen_now, chief):
    from django.db import IntegrityError, transaction

    rnd = make_round()
    ClockFiring.objects.create(round=rnd, kind="announce", fired_at=frozen_now.at)
    with pytest.raises(IntegrityError), transaction.atomic():
        ClockFiring.objects.create(round=rnd, kind="announce", fired_at=frozen_now.at)


# --- Celery scheduling ----------------------------------------------------------------------------------

def test_start_schedules_eta_tasks_and_changes_revoke_stale_ones(db, frozen_now, chief, sent,
                                                                 django_capture_on_commit_callbacks):
    rnd = make_round(tables=1)
    start = frozen_now.at
    with django_capture_on_commit_callbacks(execute=True):
        cs.start_clock(rnd, chief)
    assert sorted((k, eta) for k, eta, _id in sent["sent"]) == [
        ("announce", start + dt.timedelta(minutes=60)), ("end", start + dt.timedelta(minutes=90))]
    first_ids = {k: i for k, _eta, i in sent["sent"]}
    assert {k: v["id"] for k, v in rnd.clock.__class__.objects.get(round=rnd).task_ids.items()} == first_ids
    frozen_now.advance(minutes=10)
    with django_capture_on_commit_callbacks(execute=True):
        cs.pause_clock(rnd, chief)
    assert set(sent["revoked"]) == set(first_ids.values())
    frozen_now.advance(minutes=5)
    sent["sent"].clear()
    with django_capture_on_commit_callbacks(execute=True):
        cs.resume_clock(rnd, chief)
    assert sorted((k, eta) for k, eta, _id in sent["sent"]) == [
        ("announce", start + dt.timedelta(minutes=65)), ("end", start + dt.timedelta(minutes=95))]
    sent["sent"].clear()
    with django_capture_on_commit_callbacks(execute=True):
        cs.grant_table_time(tables_of(rnd)[0], chief, 4)
    assert [(k, eta) for k, eta, _id in sent["sent"]] == [
        (f"table:{tables_of(rnd)[0].pk}", start + dt.timedelta(minutes=69))]   # the others are kept


def test_tasks_are_thin_and_idempotent(db, frozen_now, chief):
    from tournament.clocks.tasks import fire_round_clock, sweep_clocks

    rnd = make_round(tables=1)
    cs.start_clock(rnd, chief)
    frozen_now.advance(minutes=60)
    assert fire_round_clock.run(rnd.pk, "announce")[0] == "announce"
    assert fire_round_clock.run(rnd.pk, "announce") == []
    assert sweep_clocks.run() == {}
    assert ClockFiring.objects.get(round=rnd).via == "task:announce"


def test_beat_sweeps_every_15_seconds(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-round-clocks"]
    assert entry == {"task": "tournament.sweep_clocks", "schedule": 15.0}


# --- the display JSON and its query budget --------------------------------------------------------------

def test_display_poll_costs_at_most_two_queries(client, db, frozen_now, chief, django_assert_max_num_queries):
    rnd = make_round(tables=6)
    cs.start_clock(rnd, chief)
    url = f"/api/rounds/{rnd.pk}/clock/"
    assert client.get(url).status_code == 200         # warms the shared cache
    for _ in range(3):
        frozen_now.advance(seconds=5)
        with django_assert_max_num_queries(2):
            data = client.get(url).json()
    assert data["status"] == "running" and data["remaining_seconds"] == 90 * 60 - 15
    assert data["server_now"].startswith("2026-12-05T01:00:15") and len(data["tables"]) == 6
    client.force_login(chief)
    client.get(url)
    with django_assert_max_num_queries(2):
        assert client.get(url).status_code == 200


def test_display_shows_banner_after_firing_and_hands_after_recording(client, db, frozen_now, chief):
    rnd = make_round(tables=1)
    (table,) = tables_of(rnd)
    cs.start_clock(rnd, chief)
    url = f"/api/rounds/{rnd.pk}/clock/"
    assert client.get(url).json()["banner"] == ""
    frozen_now.advance(minutes=60)
    cs.fire_due(rnd.pk)
    display_cache.invalidate(rnd.pk)        # what the on_commit hook does after the real commit
    data = client.get(url).json()
    assert data["announced"] and "3" in data["banner"] and data["tables"][0]["hands_left"] == 4
    play(table, chief)
    display_cache.invalidate(rnd.pk)        # the scoring layer's call after a recorded hand
    assert client.get(url).json()["tables"][0]["hands_left"] == 3


def test_unpublished_round_hidden_from_public(client, db, make_user):
    rnd = make_round(published=False)
    url = f"/api/rounds/{rnd.pk}/clock/"
    assert client.get(url).status_code == 404
    assert client.get(f"/events/{rnd.stage.event.slug}/rounds/{rnd.pk}/display/").status_code == 404
    client.force_login(make_user("table_referee"))
    assert client.get(url).status_code == 200
    assert client.get("/api/rounds/999999/clock/").status_code == 404


def test_display_page_is_public_for_published_events(client, db):
    rnd = make_round()
    html = client.get(f"/events/{rnd.stage.event.slug}/rounds/{rnd.pk}/display/").content.decode()
    assert "data-round-clock" in html and f"/api/rounds/{rnd.pk}/clock/" in html and "js/clock.js" in html


# --- the chief referee's page and API --------------------------------------------------------------------

def test_chief_page_needs_the_chief_referee(client, db, make_user):
    rnd = make_round()
    url = f"/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/clock/"
    assert client.get(url).status_code == 302
    client.force_login(make_user("table_referee"))
    assert client.get(url).status_code == 403
    client.force_login(make_user("organiser"))
    assert client.get(url).status_code == 403


def test_chief_page_runs_the_clock_and_shows_the_overview(client, db, frozen_now, chief):
    rnd = make_round(tables=2)
    t1, t2 = tables_of(rnd)
    url = f"/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/clock/"
    client.force_login(chief)
    page = client.get(url).content.decode()
    assert "no limit yet" in page or "尚无限制" in page
    asked = client.post(url, {"action": "start"})  # the page asks first
    assert asked.status_code == 200 and "confirm-box" in asked.content.decode() and not ClockEvent.objects.exists()
    assert client.post(url, {"action": "start", "confirmed": "1"}).status_code == 302
    client.post(url, {"action": "table_extra", "match": t2.pk, "minutes": "5"})  # five minutes: no question
    response = client.post(url, {"action": "add", "minutes": "x"}, follow=True)
    assert "请填写整数分钟" in response.content.decode()
    assert list(ClockEvent.objects.values_list("kind", "seconds", "match")) == [
        ("start", 0, None), ("table_extra", 300, t2.pk)]
    frozen_now.advance(minutes=60)
    cs.fire_due(rnd.pk)
    html = client.get(url).content.decode()
    assert 'data-match-id="%d"' % t1.pk in html and "<td class=\"hands-left\">4</td>" in html


def test_clock_api_actions(client, db, frozen_now, chief, make_user):
    rnd = make_round(tables=1)
    (table,) = tables_of(rnd)
    url = f"/api/rounds/{rnd.pk}/clock/actions/"
    client.force_login(make_user("table_referee"))
    assert client.post(url, {"action": "start"}, content_type="application/json").status_code == 403
    client.force_login(chief)
    bad = client.post(url, {"action": "pause"}, content_type="application/json")
    assert bad.status_code == 400 and "尚未开始" in bad.json()["detail"]
    ok = client.post(url, {"action": "start"}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["status"] == "running"
    ok = client.post(url, {"action": "table_extra", "match": table.pk, "minutes": 2},
                     content_type="application/json")
    assert ok.json()["tables"][0]["extra_seconds"] == 120
    assert client.post(url, {"action": "add"}, content_type="application/json").status_code == 400

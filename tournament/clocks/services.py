"""Hall clocks, database side: change a round's clock, fire the announcement and the end exactly once,
and limit each table's hands after the announcement.

Clock arithmetic itself is pure (``tournament.engines.clock``); this module reads and writes the records:

    start_clock(round, user) / pause_clock / resume_clock / add_time(round, user, minutes)
    grant_table_time(match, user, minutes)              per-table extra time (a ClockEvent too)
    set_clock_settings(event_or_round, user, **overrides)  the organiser's overrides
    clock_rule(round) -> clocks.ClockRule
    fire_due(round_id, via=...) -> list[str]            fire whatever is due and not yet fired
    sweep(via=...) -> dict                              fire_due for every running clock (beat)
    schedule_round_tasks(round_id)                      (re)send the ETA tasks, revoke stale ones
    hands_left(match) -> int | None                     None: no limit yet; 0: no more hands
    with_clock_state(queryset)                          the matches read with what hands_left needs

One table's allowance and hands left live in ``tournament.clocks.tables`` (``hands_left`` and
``with_clock_state`` are importable from here too). When a table's hands run out, its result is settled by
the one owner of results (:func:`tournament.competition.results.settle`); the hall display lives in
``tournament.clocks.display``.
"""
from __future__ import annotations

import datetime as dt
import logging
import uuid

from django.db import IntegrityError, transaction

from common.errors import ConflictError, UserError, gettext_noop
from config.celery import app as celery_app
from infra import clock
from tournament.clocks import safety, tables
from tournament.clocks.records import clock_rule, live_matches_without_allowance, marks_of, round_with_event
from tournament.clocks.tables import (  # noqa: F401 (the scoring layer's, kept here)
    hands_left,
    with_clock_state,
)
from tournament.competition import display_cache
from tournament.engines import clock as clocks
from tournament.models import (
    ClockEvent,
    ClockFiring,
    Event,
    EventClockSettings,
    HandAllowance,
    Match,
    Round,
    RoundClock,
)

#: The Celery task that fires a round's due clock events (``tournament.clocks.tasks``). Sent by name: the
#: tasks import this module, never the other way round.
FIRE_ROUND_CLOCK = "tournament.fire_round_clock"

log = logging.getLogger(__name__)

# --------------------------------------------------------------------------------------------
# Changing the clock
# --------------------------------------------------------------------------------------------
def _lock(round_id, create=False):
    """Lock the round's clock row for this transaction (an UPDATE: a row lock on PostgreSQL and the
    write lock on SQLite, so concurrent firers queue up). Returns the row, or None if there is none."""
    if create:
        try:
            with transaction.atomic():
                RoundClock.objects.get_or_create(round_id=round_id)
        except IntegrityError:
            pass  # created by a concurrent request
    if not RoundClock.objects.filter(round_id=round_id).update(touched_at=clock.now()):
        return None
    return RoundClock.objects.get(round_id=round_id)


def change_clock(rnd, user, kind, *, seconds=0, match=None, note="") -> ClockEvent:
    """Record one clock change (start/pause/resume/add/table_extra) after checking it is allowed now.

    UserError (naming the field) when it is not; the tasks are rescheduled and the
    displays refreshed after the commit.
    """
    rnd = round_with_event(rnd)
    if match is not None and match.round_id != rnd.pk:
        raise UserError(gettext_noop("This table is not in this round."), field="match")
    with transaction.atomic():
        round_clock = _lock(rnd.pk, create=True)
        rule = clock_rule(rnd, round_clock)
        mark = clocks.check_change(rule, marks_of(rnd.pk), clock.now(), kind, seconds,
                                   match.pk if match is not None else None)
        event = ClockEvent.objects.create(round=rnd, match=match, kind=kind, seconds=mark.seconds, at=mark.at,
                                          created_by=user, note=note)
        _after_commit(rnd.pk, reschedule=True)
    return event


def start_clock(rnd, user):
    """Start the round's hall clock (refused while another round of the event runs, unless the event
    allows parallel rounds: ``tournament.clocks.safety``)."""
    safety.check_parallel(round_with_event(rnd))
    return change_clock(rnd, user, clocks.START)


def pause_clock(rnd, user, note=""):
    return change_clock(rnd, user, clocks.PAUSE, note=note)


def resume_clock(rnd, user):
    return change_clock(rnd, user, clocks.RESUME)


def add_time(rnd, user, minutes, note=""):
    """Add (or, negative, take back) whole minutes for the whole hall."""
    return change_clock(rnd, user, clocks.ADD, seconds=_minutes(minutes) * 60, note=note)


def grant_table_time(match, user, minutes, note=""):
    """Extra minutes for one table (e.g. delayed by a dispute): its own end and announcement move."""
    return change_clock(match.round, user, clocks.TABLE_EXTRA, seconds=_minutes(minutes) * 60, match=match,
                        note=note)


def apply_action(rnd, user, action, minutes=None, match_id=None, note=""):
    """Run one clock action asked for by a page or the API (``action``: start, pause, resume, add, table_extra)."""
    if action in ("add", "table_extra") and minutes is None:
        raise UserError(gettext_noop("Enter the number of minutes."), field="minutes")
    try:
        if action == "start":
            return start_clock(rnd, user)
        if action == "pause":
            return pause_clock(rnd, user, note=note)
        if action == "resume":
            return resume_clock(rnd, user)
        if action == "add":
            return add_time(rnd, user, minutes, note=note)
        if action == "table_extra":
            match = Match.objects.filter(pk=match_id, round=rnd).first() if match_id else None
            if match is None:
                raise UserError(gettext_noop("Choose a table of this round."), field="match")
            return grant_table_time(match, user, minutes, note=note)
    except IntegrityError as exc:
        raise ConflictError(gettext_noop("The clock was changed by someone else at the same moment; reload."),
                            ) from exc
    raise UserError(gettext_noop("Unknown clock action."), field="action")


#: The most minutes one change of the clock may add or take back (the chief's page declares it too).
MAX_CHANGE_MINUTES = 600


def _minutes(value):
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        raise UserError(gettext_noop("Enter whole minutes."), field="minutes") from None
    if minutes == 0 or abs(minutes) > MAX_CHANGE_MINUTES:
        raise UserError(gettext_noop("Enter a number of minutes from -600 to 600, not 0."), field="minutes")
    return minutes


def set_clock_settings(target, user=None, **values):
    """Store the organiser's overrides for an Event or a Round (None inherits); validated first."""
    unknown = set(values) - set(clocks.OVERRIDE_KEYS)
    if unknown:
        raise UserError(gettext_noop("Unknown clock setting."), field=sorted(unknown)[0])
    with transaction.atomic():
        if isinstance(target, Event):
            row, _created = EventClockSettings.objects.get_or_create(event=target)
            rounds = list(Round.objects.filter(stage__event=target).values_list("pk", flat=True))
        else:
            row = _lock(target.pk, create=True)
            rounds = [target.pk]
        for key, value in values.items():
            setattr(row, key, value)
        row.save()
        for round_id in rounds:       # every affected round must still have a valid rule
            clock_rule(round_id)
            _after_commit(round_id, reschedule=True)
    return row


def _after_commit(round_id, reschedule=False):
    """After the commit: refresh the displays and, for a clock change, resend the ETA tasks."""
    transaction.on_commit(lambda: display_cache.invalidate(round_id))
    if reschedule:
        transaction.on_commit(lambda: schedule_round_tasks(round_id))


# --------------------------------------------------------------------------------------------
# Celery scheduling
# --------------------------------------------------------------------------------------------
def due_times(round_id, now=None) -> dict:
    """{schedule key: wall time} of everything still to fire while the clock runs.

    Keys: "announce", "end", and "table:<match id>" for tables whose own time differs (extra time).
    Empty while the clock is not running (paused or not started).
    """
    now = now or clock.now()
    rnd = round_with_event(round_id)
    rule = clock_rule(rnd)
    marks = marks_of(round_id)
    hall = clocks.read(rule, marks, now)
    if hall.status not in (clocks.RUNNING, clocks.TIME_UP):
        return {}
    fired = set(ClockFiring.objects.filter(round_id=round_id).values_list("kind", flat=True))
    wanted = {}
    if rule.announces and "announce" not in fired:
        wanted["announce"] = hall.announce_at
    if "end" not in fired:
        wanted["end"] = hall.ends_at or now
    allowed = set(HandAllowance.objects.filter(match__round_id=round_id).values_list("match_id", flat=True))
    for match_id in {m.table for m in marks if m.kind == clocks.TABLE_EXTRA} - allowed:
        extra = clocks.table_extra_seconds(marks, match_id)
        base = hall.announce_at if rule.announces else hall.ends_at
        if extra and base is not None:
            wanted[f"table:{match_id}"] = base + dt.timedelta(seconds=extra)
    return {key: max(at, now) for key, at in wanted.items() if at is not None}


def schedule_round_tasks(round_id):
    """Send one ETA task per due time, keep those already sent for the same time, revoke the others.

    The task ids are stored on the RoundClock; the sending itself happens after the commit.
    """
    with transaction.atomic():
        round_clock = _lock(round_id)
        if round_clock is None:
            return {}
        old = dict(round_clock.task_ids or {})
        new, to_send = {}, []
        for key, eta in due_times(round_id).items():
            kept = old.get(key)
            if kept and kept.get("eta") == eta.isoformat():
                new[key] = kept
                continue
            task_id = str(uuid.uuid4())
            new[key] = {"id": task_id, "eta": eta.isoformat()}
            to_send.append((key, eta, task_id))
        stale = [entry["id"] for key, entry in old.items() if new.get(key, {}).get("id") != entry["id"]]
        round_clock.task_ids = new
        round_clock.save(update_fields=["task_ids"])

        def send():
            for key, eta, task_id in to_send:
                celery_app.send_task(FIRE_ROUND_CLOCK, args=(round_id, key), eta=eta, task_id=task_id)
            _revoke(stale)

        transaction.on_commit(send)
    return new


def _revoke(task_ids):
    """Revoke stale tasks (best effort: a stale task that still runs finds nothing due and does nothing)."""
    if not task_ids:
        return
    try:
        celery_app.control.revoke(task_ids)
    except Exception:  # noqa: BLE001 - a broker hiccup must not undo the clock change
        log.warning("could not revoke clock tasks %s", task_ids, exc_info=True)


# --------------------------------------------------------------------------------------------
# Firing: exactly once per (round, kind) and per table
# --------------------------------------------------------------------------------------------
def fire_due(round_id, *, via="service") -> list:
    """Fire everything due and not yet fired for a round; returns what fired, e.g. ["announce", "table:7"].

    Idempotent and safe to call concurrently: the round's clock row is locked, and the unique
    constraints on ClockFiring (round, kind) and HandAllowance (match) refuse a second row.

    Lock order: the RoundClock row first, then Match rows (a table's allowance, ``_finish``). The hand
    path holds a Match lock and therefore never calls this (see :func:`tournament.clocks.tables.hands_left`).
    """
    fired = []
    with transaction.atomic():
        round_clock = _lock(round_id)
        if round_clock is None:
            return fired
        rnd = round_with_event(round_id)
        rule = clock_rule(rnd, round_clock)
        marks = marks_of(round_id)
        now = clock.now()
        hall = clocks.read(rule, marks, now)
        if hall.status == clocks.NOT_STARTED:
            return fired
        done = set(ClockFiring.objects.filter(round_id=round_id).values_list("kind", flat=True))
        for kind, due in ((ClockFiring.Kind.ANNOUNCE, hall.announce_due), (ClockFiring.Kind.END, hall.end_due)):
            if due and kind not in done and tables.create_once(ClockFiring, round_id=round_id, kind=kind,
                                                         fired_at=now, via=via):
                fired.append(str(kind))
        # the due tables' Match rows are locked (in id order) before their allowances are written: an insert
        # that waited for the row instead (PostgreSQL's foreign-key check) would hold the allowance's unique key
        # against the hand path, which holds that row and writes the same allowance. Only the due ones: a sweep
        # before the announcement locks nothing a hand waits for.
        waiting = live_matches_without_allowance(round_id)
        due = [pk for pk in waiting.values_list("pk", flat=True) if tables.due(rule, marks, now, pk)]
        locked = waiting.filter(pk__in=due).select_related("ns", "ew", "profile").order_by("pk")
        for match in locked.select_for_update(of=("self",)):
            if tables.fire_table(rule, marks, now, match):
                fired.append(f"table:{match.pk}")
        if fired:
            log.info("round %s clock fired %s via %s", round_id, fired, via)
            _after_commit(round_id)
    return fired
def running_round_ids() -> list:
    """Rounds whose clock has started and whose end has not fired (or whose tables are still due)."""
    started = set(ClockEvent.objects.filter(kind=clocks.START).values_list("round_id", flat=True))
    ended = set(ClockFiring.objects.filter(kind=ClockFiring.Kind.END).values_list("round_id", flat=True))
    pending_tables = set(
        live_matches_without_allowance().filter(round_id__in=ended).values_list("round_id", flat=True))
    return sorted((started - ended) | (started & pending_tables))



def sweep(*, via="sweep") -> dict:
    """Re-check every running clock and fire what is due: {round id: [fired]} (rounds with nothing omitted)."""
    result = {}
    for round_id in running_round_ids():
        try:
            fired = fire_due(round_id, via=via)
        except Exception:  # noqa: BLE001 - one broken round must not stop the others
            log.exception("clock sweep failed for round %s", round_id)
            continue
        if fired:
            result[round_id] = fired
    return result

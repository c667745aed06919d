"""Hall clocks, database side: change a round's clock, fire the announcement and the end exactly once,
and limit each table's hands after the announcement.

Clock arithmetic itself is pure (``tournament.clocks.arithmetic``); this module reads and writes the records:

    start_clock(round, user) / pause_clock / resume_clock / add_time(round, user, minutes)
    grant_table_time(match, user, minutes)              per-table extra time (a ClockEvent too)
    set_clock_settings(event_or_round, user, **overrides)  the organiser's overrides
    clock_rule(round) -> clocks.ClockRule
    fire_due(round_id, via=...) -> list[str]            fire whatever is due and not yet fired
    sweep(via=...) -> dict                              fire_due for every running clock (beat)
    schedule_round_tasks(round_id)                      (re)send the ETA tasks, revoke stale ones
    hands_left(match) -> int | None                     None: no limit yet; 0: no more hands

When a table's hands run out, its result is settled by the one owner of results
(:func:`tournament.competition.results.settle`); the hall display lives in ``tournament.clocks.display``.
"""
from __future__ import annotations

import datetime as dt
import logging
import uuid

from django.db import IntegrityError, connection, transaction
from django.db.models import Exists, OuterRef

from common.errors import ConflictError, UserError, gettext_noop
from config import clock
from config.celery import app as celery_app
from config.db import lock_row
from rulings.adjustments import match_replay
from tournament.clocks import arithmetic as clocks
from tournament.clocks import cache as display_cache
from tournament.clocks import leads, safety
from tournament.clocks.records import (
    clock_rule,
    hands_recorded,
    live_matches_without_allowance,
    marks_of,
    round_with_event,
)
from tournament.clocks.tasks import fire_round_clock
from tournament.competition import results
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


def _minutes(value):
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        raise UserError(gettext_noop("Enter whole minutes."), field="minutes") from None
    if minutes == 0 or abs(minutes) > 600:
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
                fire_round_clock.apply_async((round_id, key), eta=eta, task_id=task_id)
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
    path holds a Match lock and therefore never calls this (see :func:`_ensure_fired`).
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
            if due and kind not in done and _create_once(ClockFiring, round_id=round_id, kind=kind,
                                                         fired_at=now, via=via):
                fired.append(str(kind))
        for match in live_matches_without_allowance(round_id).select_related("ns", "ew", "profile"):
            if _fire_table(rule, marks, now, match):
                fired.append(f"table:{match.pk}")
        if fired:
            log.info("round %s clock fired %s via %s", round_id, fired, via)
            _after_commit(round_id)
    return fired
def _fire_table(rule, marks, now, match) -> bool:
    """Fix one table's hand allowance if its own announcement (or, without one, its end) is due.

    At the end (no announcement), the table's result is settled at once: its last allowed hand is the
    one played.
    """
    reading = clocks.read(rule, marks, now, table=match.pk)
    if rule.announces and reading.announce_due:
        recorded = hands_recorded(match)
        # 000 第十五条: only a hand whose first lead was made is "in play"; a table still dealing or
        # bidding counts the hand it is about to play as the first of the hands after
        counts = rule.hand_in_play_counts or not leads.lead_made(match, recorded + 1)
        last = clocks.last_allowed_hand(recorded, rule.hands_after, counts)
        return _create_once(HandAllowance, match=match, reason=HandAllowance.Reason.ANNOUNCE,
                            hand_in_play=recorded + 1, last_hand=last, fired_at=now)
    if not rule.announces and reading.end_due:
        replayed = match_replay(match)
        count = replayed.state.hand_count
        created = _create_once(HandAllowance, match=match, reason=HandAllowance.Reason.TIME_UP,
                               hand_in_play=count + 1, last_hand=count, fired_at=now)
        if created:
            _forget_clock_state(match)
            locked = lock_row(Match.objects.select_related("ns", "ew", "profile"), match.pk)
            results.settle(locked, replay=replayed)
        return created
    return False


def _create_once(model, **fields) -> bool:
    """Create the row unless a unique constraint says it exists already; True if created."""
    try:
        with transaction.atomic():
            model.objects.create(**fields)
    except IntegrityError:
        return False
    return True


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


# --------------------------------------------------------------------------------------------
# Hands left and the end of a match (called by the scoring layer)
# --------------------------------------------------------------------------------------------
def with_clock_state(queryset):
    """Matches read with what :func:`hands_left` and :func:`check_match_end` need, so they need no
    query of their own while the round's clock has not started: the match's HandAllowance and
    ``clock_started`` (a start, pause or resume mark of its round by now)."""
    moved = ClockEvent.objects.filter(round_id=OuterRef("round_id"), at__lte=clock.now(),
                                      kind__in=(clocks.START, clocks.PAUSE, clocks.RESUME))
    return queryset.select_related("hand_allowance").annotate(clock_started=Exists(moved))


# with_clock_state's ``clock_started`` for a hand-written read (config.rowread.JoinedRead: the match is
# ``t0``); its parameter: clock_started_params().
CLOCK_STARTED_SQL = (
    f"EXISTS (SELECT 1 FROM {ClockEvent._meta.db_table} c WHERE c.round_id = t0.round_id AND c.at <= %s "
    f"AND c.kind IN ({', '.join(repr(kind) for kind in (clocks.START, clocks.PAUSE, clocks.RESUME))}))")


def clock_started_params():
    return [connection.ops.adapt_datetimefield_value(clock.now())]


def _allowance(match):
    """The match's HandAllowance or None: from the match's read when it joined ``hand_allowance``."""
    if Match.hand_allowance.related.is_cached(match):
        return getattr(match, "hand_allowance", None)  # None: the relation was read and is empty
    return HandAllowance.objects.filter(match_id=match.pk).first()


def _forget_clock_state(match):
    """After a firing the read of :func:`with_clock_state` is stale: the next reads go to the database."""
    if hasattr(match, "clock_started"):
        del match.clock_started
    if Match.hand_allowance.related.is_cached(match):
        Match.hand_allowance.related.delete_cached_value(match)


def _ensure_fired(match):
    """Fix this table's hand allowance before a hand is counted when its announcement (or, without
    one, its end) is due but no task has fixed it yet, so a late task cannot shift the hand in play.
    True when it fixed it.

    Called by the hand path while it holds the Match lock, so it never takes the RoundClock lock
    (the lock order is RoundClock, then Match: see :func:`fire_due`) and writes no ClockFiring: it
    only creates this match's own HandAllowance (unique per match); the round's firings are left to
    the task and the sweep. No query when :func:`with_clock_state` read that the clock has not
    started or that the allowance exists already.
    """
    if not getattr(match, "clock_started", True):
        return False  # not started: nothing can be due (clocks.read: not_started is never due)
    if _allowance(match) is not None:
        return False
    rnd = round_with_event(match.round_id)
    try:
        rule = clock_rule(rnd)
    except ValueError:
        return False
    fixed = _fire_table(rule, marks_of(rnd.pk), clock.now(), match)
    if fixed:
        _forget_clock_state(match)
        _after_commit(rnd.pk)
    return fixed


def hands_left(match, *, recorded=None) -> int | None:
    """Hands the table may still play: None while unlimited (no announcement yet), 0 when none.

    The scoring layer calls it before storing a hand and refuses the hand when it returns 0.
    """
    if match.is_over:
        return 0
    _ensure_fired(match)
    allowance = _allowance(match)
    if allowance is None:
        return None
    if recorded is None:
        recorded = hands_recorded(match)
    return clocks.hands_left(recorded, allowance.last_hand)

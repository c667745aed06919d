"""Hall clocks, database side: change a round's clock, fire the announcement and the end exactly once,
limit each table's hands after the announcement, and serve the hall display from a shared cache.

Clock arithmetic itself is pure (tournament/clocks.py); this module reads and writes the records:

    start_clock(round, user) / pause_clock / resume_clock / add_time(round, user, minutes)
    grant_table_time(match, user, minutes)              per-table extra time (a ClockEvent too)
    set_clock_settings(event_or_round, user, **overrides)  the organiser's overrides
    clock_rule(round) -> clocks.ClockRule
    fire_due(round_id, via=...) -> list[str]            fire whatever is due and not yet fired
    sweep(via=...) -> dict                              fire_due for every running clock (beat)
    schedule_round_tasks(round_id)                      (re)send the ETA tasks, revoke stale ones
    hands_left(match) -> int | None                     None: no limit yet; 0: no more hands
    check_match_end(match, state=None) -> MatchEnd      ends the match when its hands run out
    round_overview(round) -> list[dict]                 every table: hands left, ended, winner
    display_data(round_id) -> dict                      the shared, cached part of the display
    live_clock(data, now, lang_banner=True) -> dict     the per-request part (remaining time)
    invalidate_display(round_id)                        drop the cached display of a round
"""
from __future__ import annotations

import datetime as dt
import logging
import uuid
from dataclasses import dataclass

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from config import clock

from . import clocks
from .models import ClockEvent, ClockFiring, EventClockSettings, HandAllowance, Match, Round, RoundClock

log = logging.getLogger(__name__)

DISPLAY_CACHE_SECONDS = 30          # a safety net: invalidation normally refreshes the display at once
OVER_STATUSES = (Match.Status.FINISHED, Match.Status.WALKOVER, Match.Status.FORFEIT, Match.Status.BYE)


# --------------------------------------------------------------------------------------------
# Reading the records
# --------------------------------------------------------------------------------------------
def _round_with_event(round_or_id):
    if isinstance(round_or_id, Round):
        return round_or_id
    return Round.objects.select_related("stage__event__profile").get(pk=round_or_id)


def clock_rule(rnd, round_clock=None) -> clocks.ClockRule:
    """The round's rule: the event profile's timing, then the event's and the round's overrides."""
    rnd = _round_with_event(rnd)
    event = rnd.stage.event
    layers = []
    event_settings = EventClockSettings.objects.filter(event=event).first()
    if event_settings is not None:
        layers.append(event_settings.overrides())
    if round_clock is None:
        round_clock = RoundClock.objects.filter(round=rnd).first()
    if round_clock is not None:
        layers.append(round_clock.overrides())
    return clocks.merge_rule(event.profile.data.get("timing", {}), *layers)


def marks_of(round_id) -> list:
    """The round's clock events as pure :class:`clocks.Mark` s, in time order."""
    rows = ClockEvent.objects.filter(round_id=round_id).order_by("at", "id").values_list(
        "kind", "at", "seconds", "match_id")
    return [_mark(*row) for row in rows]


def _mark(kind, at, seconds, match_id):
    return clocks.Mark(kind, at, seconds if kind in (clocks.ADD, clocks.TABLE_EXTRA) else 0, match_id)


def live_matches(round_id=None):
    """The tables still playing (both entries present and not over): of one round, or of every round."""
    matches = Match.objects.filter(ns__isnull=False, ew__isnull=False).exclude(status__in=OVER_STATUSES)
    return matches if round_id is None else matches.filter(round_id=round_id)


def live_matches_without_allowance(round_id=None):
    """The tables still playing whose hands are not limited yet (no HandAllowance fixed)."""
    return live_matches(round_id).filter(hand_allowance__isnull=True)


def match_state_of(match):
    """The scoring layer's replayed MatchState of a match (scoring.services.match_state)."""
    from scoring.services import match_state

    return match_state(match)


def hands_recorded(match) -> int:
    """Hands played (or decided by a ruling) so far at this table."""
    return match_state_of(match).hand_count


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

    ValueError (Chinese, naming the field) when it is not; the tasks are rescheduled and the
    displays refreshed after the commit.
    """
    rnd = _round_with_event(rnd)
    if match is not None and match.round_id != rnd.pk:
        raise ValueError("match: 该桌不属于本轮（the table is not in this round）")
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
    """Start the round's hall clock."""
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


def _minutes(value):
    try:
        minutes = int(value)
    except (TypeError, ValueError):
        raise ValueError(f"minutes: 应为整数分钟，得到 {value!r}（must be whole minutes）") from None
    if minutes == 0 or abs(minutes) > 600:
        raise ValueError(f"minutes: 应为 -600 到 600 之间的非零整数，得到 {minutes}（out of range）")
    return minutes


def set_clock_settings(target, user=None, **values):
    """Store the organiser's overrides for an Event or a Round (None inherits); validated first."""
    unknown = set(values) - set(clocks.OVERRIDE_KEYS)
    if unknown:
        raise ValueError(f"{sorted(unknown)[0]}: 未知的计时设置（unknown clock setting）")
    from .models import Event

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
    transaction.on_commit(lambda: invalidate_display(round_id))
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
    rnd = _round_with_event(round_id)
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
    from .tasks import fire_round_clock

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
        from config.celery import app

        app.control.revoke(task_ids)
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
        rnd = _round_with_event(round_id)
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
    """Fix one table's hand allowance if its own announcement (or, without one, its end) is due."""
    reading = clocks.read(rule, marks, now, table=match.pk)
    if rule.announces and reading.announce_due:
        recorded = hands_recorded(match)
        last = clocks.last_allowed_hand(recorded, rule.hands_after, rule.hand_in_play_counts)
        return _create_once(HandAllowance, match=match, reason=HandAllowance.Reason.ANNOUNCE,
                            hand_in_play=recorded + 1, last_hand=last, fired_at=now)
    if not rule.announces and reading.end_due:
        state = match_state_of(match)
        created = _create_once(HandAllowance, match=match, reason=HandAllowance.Reason.TIME_UP,
                               hand_in_play=state.hand_count + 1, last_hand=state.hand_count, fired_at=now)
        if created:
            check_match_end(match, state=state)
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
@dataclass(frozen=True, slots=True)
class MatchEnd:
    """Whether a match is over by the clock rules, who won ("NS"/"EW"/None) and why."""

    ended: bool
    winner: str | None = None
    reason: str = ""          # "top" (passed the top level), "hands" (last allowed hand), "time" (time up)


def with_clock_state(queryset):
    """Matches read with what :func:`hands_left` and :func:`check_match_end` need, so they need no
    query of their own while the round's clock has not started: the match's HandAllowance and
    ``clock_started`` (a start, pause or resume mark of its round by now)."""
    moved = ClockEvent.objects.filter(round_id=OuterRef("round_id"), at__lte=clock.now(),
                                      kind__in=(clocks.START, clocks.PAUSE, clocks.RESUME))
    return queryset.select_related("hand_allowance").annotate(clock_started=Exists(moved))


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
    rnd = _round_with_event(match.round_id)
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
    if match.status in OVER_STATUSES:
        return 0
    _ensure_fired(match)
    allowance = _allowance(match)
    if allowance is None:
        return None
    if recorded is None:
        recorded = hands_recorded(match)
    return clocks.hands_left(recorded, allowance.last_hand)


def end_of_match(state, allowance) -> MatchEnd:
    """The clock's verdict on a match state: over when a side passed the top, or its hands ran out."""
    if state.winner is not None:
        return MatchEnd(True, state.winner, "top")
    if allowance is not None and state.hand_count >= allowance.last_hand:
        reason = "time" if allowance.reason == HandAllowance.Reason.TIME_UP else "hands"
        return MatchEnd(True, state.winner_at_time(), reason)
    return MatchEnd(False)


_RESULT_NOTES = {
    "hands": "Last allowed hand played; decided by level",
    "time": "Time is up; decided by level",
}


def check_match_end(match, *, state=None) -> MatchEnd:
    """Decide whether ``match`` is over by the clock and, if so, finish it (status, winner, time).

    The scoring layer calls it after every recorded hand (passing the replayed ``state``). The result
    at the last allowed hand follows the profile's time-up rule (``MatchState.winner_at_time()``).
    Finishing is idempotent: a match already over is left as it is.
    """
    state = state if state is not None else match_state_of(match)
    allowance = _allowance(match)
    verdict = end_of_match(state, allowance)
    if verdict.ended and verdict.reason in _RESULT_NOTES:
        _finish(match, verdict)
    return verdict


def _finish(match, verdict):
    """Mark the match finished by the clock (saved, so the competition's post_save handlers run)."""
    with transaction.atomic():
        fresh = Match.objects.select_for_update().get(pk=match.pk)
        if fresh.status in OVER_STATUSES:
            return
        fresh.status = Match.Status.FINISHED
        fresh.winner_id = {"NS": fresh.ns_id, "EW": fresh.ew_id}.get(verdict.winner)
        fresh.finished_at = clock.now()
        fresh.result_note = _(_RESULT_NOTES[verdict.reason])
        fresh.save(update_fields=["status", "winner", "finished_at", "result_note"])
        match.status, match.winner_id, match.finished_at = fresh.status, fresh.winner_id, fresh.finished_at
        _after_commit(match.round_id)


# --------------------------------------------------------------------------------------------
# Overview and hall display
# --------------------------------------------------------------------------------------------
def _table_rows(round_id, marks):
    """One dict per table of the round (for the chief referee's overview and the display)."""
    matches = (Match.objects.filter(round_id=round_id).select_related("ns", "ew", "winner", "hand_allowance",
                                                                        "profile")
               .order_by("table", "id"))
    rows = []
    for match in matches:
        allowance = getattr(match, "hand_allowance", None)
        over = match.status in OVER_STATUSES
        recorded = None
        if match.ns_id and match.ew_id:
            try:
                recorded = hands_recorded(match)
            except ValueError:
                log.warning("cannot replay match %s", match.pk, exc_info=True)
        rows.append({
            "match_id": match.pk,
            "table": match.table,
            "ns": str(match.ns or match.ns_source or ""),
            "ew": str(match.ew or match.ew_source or ""),
            "ns_level": match.ns_level,
            "ew_level": match.ew_level,
            "status": match.status,
            "playing": bool(match.ns_id and match.ew_id) and not over,
            "ended": over,
            "winner": str(match.winner) if match.winner_id else "",
            "recorded": recorded,
            "hand_in_play": allowance.hand_in_play if allowance else None,
            "last_hand": allowance.last_hand if allowance else None,
            "hands_left": 0 if over else (clocks.hands_left(recorded or 0, allowance.last_hand) if allowance else None),
            "extra_seconds": clocks.table_extra_seconds(marks, match.pk),
        })
    return rows


def round_overview(rnd) -> list:
    """The chief referee's view of every table: hands recorded, hands left, ended, winner, extra time."""
    rnd = _round_with_event(rnd)
    return _table_rows(rnd.pk, marks_of(rnd.pk))


def _display_key(round_id):
    return f"clock:display:{round_id}"


def invalidate_display(round_id):
    """Drop the cached display data of a round (after clock events, firings and recorded hands)."""
    cache.delete(_display_key(round_id))


def display_data(round_id) -> dict | None:
    """Everything the displays of a round share, from the cache. None: no such round.

    On a miss one poll rebuilds it (a short cache lock) while the others keep serving the previous
    copy, so hundreds of displays polling right after a recorded hand do not all rebuild at once.
    """
    key = _display_key(round_id)
    data = cache.get(key)
    if data is not None:
        return data
    if not cache.add(f"{key}:rebuilding", 1, 10):
        stale = cache.get(f"{key}:stale")
        if stale is not None:
            return stale
    try:
        data = build_display_data(round_id)
        if data is not None:
            cache.set_many({key: data, f"{key}:stale": data}, DISPLAY_CACHE_SECONDS)
    finally:
        cache.delete(f"{key}:rebuilding")
    return data


def build_display_data(round_id) -> dict | None:
    """The shared display data straight from the database (plain values, ready for the cache)."""
    rnd = Round.objects.select_related("stage__event__profile").filter(pk=round_id).first()
    if rnd is None:
        return None
    event = rnd.stage.event
    try:
        rule = clock_rule(rnd)
    except ValueError as exc:
        rule, rule_error = None, str(exc)
    else:
        rule_error = ""
    marks = marks_of(round_id)
    firings = dict(ClockFiring.objects.filter(round_id=round_id).values_list("kind", "fired_at"))
    return {
        "round": {"id": rnd.pk, "name": str(rnd), "event_slug": event.slug, "event_name": event.name,
                  "published": event.published},
        "rule": None if rule is None else {
            "match_seconds": rule.match_seconds, "announce_before_seconds": rule.announce_before_seconds,
            "hands_after": rule.hands_after, "hand_in_play_counts": rule.hand_in_play_counts},
        "rule_error": rule_error,
        "marks": [(m.kind, m.at, m.seconds, m.table) for m in marks],
        "firings": firings,
        "tables": _table_rows(round_id, marks),
    }


def _iso(value):
    return value.isoformat(timespec="milliseconds") if value is not None else None


def banner_text(rule) -> str:
    """The announcement banner: what every table must do now."""
    if rule["hand_in_play_counts"]:
        return _("Announcement: including the hand in play, every table plays %(n)s more hand(s).") % {
            "n": rule["hands_after"]}
    return _("Announcement: the hand in play does not count; every table then plays %(n)s more hand(s).") % {
        "n": rule["hands_after"]}


def live_clock(data, now=None) -> dict:
    """The JSON a display polls: the shared data read at ``now`` (remaining time, per-table ends)."""
    now = now or clock.now()
    base = {"server_now": _iso(now), "round": data["round"], "rule_error": data["rule_error"]}
    if data["rule"] is None:
        return {**base, "status": clocks.NOT_STARTED, "tables": data["tables"], "announced": False,
                "banner": "", "time_up": False, "remaining_seconds": None, "ends_at": None,
                "announce_at": None, "length_seconds": None}
    rule = clocks.ClockRule(**data["rule"])
    marks = [_mark(*m) for m in data["marks"]]
    hall = clocks.read(rule, marks, now)
    announced_at = data["firings"].get("announce")
    tables = []
    for row in data["tables"]:
        mine = clocks.read(rule, marks, now, table=row["match_id"]) if row["extra_seconds"] else hall
        tables.append({**row, "remaining_seconds": round(mine.remaining, 3), "ends_at": _iso(mine.ends_at)})
    return {
        **base,
        "status": hall.status,
        "length_seconds": hall.length,
        "remaining_seconds": round(hall.remaining, 3),
        "remaining_text": clocks.format_remaining(hall.remaining),
        "ends_at": _iso(hall.ends_at),
        "announce_at": _iso(hall.announce_at),
        "announced": announced_at is not None,
        "announced_at": _iso(announced_at),
        "time_up": "end" in data["firings"] or hall.end_due,
        "banner": banner_text(data["rule"]) if announced_at is not None else "",
        "hands_after": rule.hands_after,
        "tables": tables,
    }

"""Hall clocks at one table: fixing a table's hand allowance when its announcement (or, without one, its
end) is due, and the hands it may still play. The scoring layer calls :func:`hands_left` before storing a
hand (reading the match with :func:`with_clock_state`); :func:`tournament.clocks.services.fire_due` calls
:func:`fire_table` for every table of a round. Every name here is importable from
``tournament.clocks.services`` too.

    with_clock_state(queryset)                  the matches read with what hands_left needs
    hands_left(match) -> int | None             None: no limit yet; 0: no more hands
    fire_table(rule, marks, now, match) -> bool  fix one table's allowance (at the end: settle its result)
"""
from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef

from infra import clock
from infra.db import lock_row
from tournament.clocks import leads
from tournament.clocks.records import clock_rule, hands_recorded, marks_of, round_with_event
from tournament.competition import allowances, display_cache, results
from tournament.engines import clock as clocks
from tournament.models import ClockEvent, HandAllowance, Match
from tournament.records.adjustments import match_replay


def due(rule, marks, now, match_id) -> bool:
    """Whether the table's own announcement (or, without one, its end) is due: read from the clock's marks, no
    query (the worker locks only the tables this says are due)."""
    reading = clocks.read(rule, marks, now, table=match_id)
    return reading.announce_due if rule.announces else reading.end_due


def fire_table(rule, marks, now, match) -> bool:
    """Fix one table's hand allowance if its own announcement (or, without one, its end) is due.

    At the end (no announcement), the table's result is settled at once: its last allowed hand is the
    one played.
    """
    if not due(rule, marks, now, match.pk):
        return False
    if rule.announces:
        recorded = hands_recorded(match)
        # 000 第十五条: only a hand whose first lead was made is "in play"; a table still dealing or
        # bidding counts the hand it is about to play as the first of the hands after
        counts = rule.hand_in_play_counts or not leads.lead_made(match, recorded + 1)
        last = clocks.last_allowed_hand(recorded, rule.hands_after, counts)
        return create_once(HandAllowance, match=match, reason=HandAllowance.Reason.ANNOUNCE,
                           hand_in_play=recorded + 1, last_hand=last, fired_at=now, in_play_counted=counts,
                           in_play_by_rule=rule.hand_in_play_counts, redeals_count=rule.redeals_count)
    replayed = match_replay(match)
    count = replayed.state.hand_count
    created = create_once(HandAllowance, match=match, reason=HandAllowance.Reason.TIME_UP,
                          hand_in_play=count + 1, last_hand=count, fired_at=now)
    if created:
        _forget_clock_state(match)
        locked = lock_row(Match.objects.select_related("ns", "ew", "profile"), match.pk)
        results.settle(locked, replay=replayed)
    return created


def create_once(model, **fields) -> bool:
    """Create the row unless a unique constraint says it exists already; True if created."""
    try:
        with transaction.atomic():
            model.objects.create(**fields)
    except IntegrityError:
        return False
    return True


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

    Called by the hand path while it holds the Match lock, so it never takes the RoundClock lock (the
    lock order is RoundClock, then Match: see :func:`tournament.clocks.services.fire_due`) and writes no
    ClockFiring: it only creates this match's own HandAllowance (unique per match); the round's firings
    are left to the task and the sweep. No query when :func:`with_clock_state` read that the clock has not
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
    fixed = fire_table(rule, marks_of(rnd.pk), clock.now(), match)
    if fixed:
        _forget_clock_state(match)
        round_id = rnd.pk
        transaction.on_commit(lambda: display_cache.invalidate(round_id))  # the hall display shows it
    return fixed


def hands_left(match, *, recorded=None) -> int | None:
    """Hands the table may still play: None while unlimited (no announcement yet), 0 when none.

    The scoring layer calls it before storing a hand and refuses the hand when it returns 0.
    """
    if match.is_over:
        return 0
    _ensure_fired(match)
    allowance = allowances.in_force(_allowance(match), lambda: match_replay(match).state, match)
    if allowance is None:
        return None
    if recorded is None:
        recorded = hands_recorded(match)
    return clocks.hands_left(recorded, allowance.last_hand)

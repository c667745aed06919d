"""Recording hands at a table: the next hand, or a new version of the last one (append-only Hand rows).

    record_hand(match, user, *, number, trump, defender_points, declarer=None, bottom_points=0,
                last_trick=None, reclaim=False) -> HandWritten(hand, match, replay)
    correct_last_hand(match, user, *, number, ...same fields...) -> HandWritten

Levels, declarer and winner are never typed in: each write locks the Match row and reads the match's records
once (:class:`tournament.records.match.MatchRecord`): its kept engine state, or, when that cannot stand for
them (a correction, a ruling waiting for this hand, no kept state), its current hands and rulings. The hand
is applied to the kept state or the match replayed once with the rulings' adjustments, the Hand stored with
the engine's result, and the record handed to the one owner of the match's result
(:func:`tournament.competition.results.settle`), all in one transaction. The unique constraints on Hand
catch any race the lock leaves; both become a 409 (:class:`HandConflict`).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from common.errors import ConflictError, ForbiddenError, NotFoundError, UserError, gettext_noop
from common.seats import SEAT_SIDE
from infra import clock
from scoring.models import TRUMPS, Hand
from tournament import access
from tournament.clocks import services as clock_services
from tournament.competition import results
from tournament.models import Match
from tournament.records import match as match_record
from tournament.records import snapshots
from tournament.records.closing import refuse_if_round_closed
from tournament.records.hands import Replay, apply_hand, next_hand_number, replay
from tournament.selfscore import modes as recorders


class HandConflict(ConflictError):
    """The match changed under the request (the number is taken, the match is over): HTTP 409."""


class HandRefused(ForbiddenError):
    """The user may not record hands at this table: HTTP 403."""


@dataclass(frozen=True)
class HandWritten:
    """A stored hand with what its write computed: the locked Match (result settled) and the match
    replayed after the write, so the caller answers without reading or replaying again."""

    hand: Hand
    match: Match
    replay: Replay


def _for_hands(writer):
    """The match as a hand write reads it after the lock: the pairs, the round, the kept state, the clock
    state :func:`tournament.clocks.services.hands_left` needs, and the event and the writer's assignment the
    permission check needs (the rule profile is the process's copy: :func:`tournament.records.match.lock`)."""
    related = Match.objects.select_related("ns", "ew", "round__stage__event", "engine_snapshot")
    return access.with_access(clock_services.with_clock_state(related), writer)


def _lock_match(match, writer):
    """Lock the Match row for this transaction and return it fresh, with its kept state
    (:func:`tournament.records.match.lock`). The lock also serialises writers on SQLite
    (:func:`infra.db.lock_row`)."""
    try:
        return access.remember_access(writer, match_record.lock(_for_hands(writer), match.pk))
    except Match.DoesNotExist as exc:
        raise NotFoundError(gettext_noop("No such match."), field="match") from exc


def _taken(number):
    """The 409 for a hand number somebody else recorded first."""
    return HandConflict(gettext_noop("Hand %(number)s was already recorded, probably by another referee; "
                                     "reload the table."), field="number", number=number)


def _check_number(number, expected):
    """The submitted hand number must be the next one: lower is a conflict (409), higher a bad input."""
    if not isinstance(number, int) or isinstance(number, bool):
        raise UserError(gettext_noop("The hand number must be a whole number."), field="number")
    if number < expected:
        raise _taken(number)
    if number > expected:
        raise UserError(gettext_noop("The next hand is hand %(expected)s, not hand %(number)s."), field="number",
                        expected=expected, number=number)


def _hand_inputs(trump, defender_points, *, declarer=None, bottom_points=0, last_trick=None, reclaim=False):
    """The referee's inputs for one hand as a dict (the fields a Hand row stores)."""
    if trump not in TRUMPS:
        raise UserError(gettext_noop("Unknown trump: choose one of %(choices)s."), field="trump",
                        choices="/".join(Hand.Trump.values))
    if last_trick is not None and not isinstance(last_trick, dict):
        raise UserError(gettext_noop("The last trick must be given as an object."), field="last_trick")
    return {
        "trump": trump, "defender_points": defender_points, "declarer_seat": declarer,
        "bottom_points": bottom_points, "last_trick": dict(last_trick) if last_trick else None,
        "reclaim": bool(reclaim), "outcome": Hand.Outcome.PLAYED,
    }


def _redeal_inputs():
    """A hand nobody declared trump in (000 第五条): no trump, no points; the engine moves the deal on."""
    return {"trump": "", "defender_points": 0, "declarer_seat": None, "bottom_points": 0, "last_trick": None,
            "reclaim": False, "outcome": Hand.Outcome.REDEAL}


def _rebel_inputs(called_by, declarer):
    """造反 (004 二.7): ``called_by`` the attacker's seat, ``declarer`` the seat that won the new bidding; no
    trump, no points (the engine checks the seats against the match)."""
    for name, seat in (("called_by", called_by), ("declarer", declarer)):
        if seat not in SEAT_SIDE:
            raise UserError(gettext_noop("Choose a seat: N, E, S or W."), field=name)
    return {**_redeal_inputs(), "outcome": Hand.Outcome.REBEL, "called_by": called_by, "bid_winner": declarer}


def _inputs_for(outcome, *, trump, defender_points, declarer, bottom_points, last_trick, reclaim, called_by=None):
    if outcome == Hand.Outcome.REDEAL:
        return _redeal_inputs()
    if outcome == Hand.Outcome.REBEL:
        return _rebel_inputs(called_by, declarer)
    if outcome not in (None, Hand.Outcome.PLAYED):
        raise UserError(gettext_noop("Unknown outcome: choose one of %(choices)s."), field="outcome",
                        choices="/".join(Hand.Outcome.values))
    return _hand_inputs(trump, defender_points, declarer=declarer, bottom_points=bottom_points,
                        last_trick=last_trick, reclaim=reclaim)


def _store(match, user, number, *, inputs, state, adjustment, supersedes=None):
    """Create the Hand row from the inputs and the engine's result of that hand (the state's last)."""
    result = state.last_hand
    levels = state.levels
    hand = Hand.objects.create(
        match=match, number=number, supersedes=supersedes,
        version=supersedes.version + 1 if supersedes else 1,
        declarer_seat=result.declarer_seat or inputs["declarer_seat"] or "",
        trump=inputs["trump"], defender_points=inputs["defender_points"],
        outcome=inputs.get("outcome", Hand.Outcome.PLAYED),
        called_by=inputs.get("called_by") or "", bid_winner=inputs.get("bid_winner") or "",
        bottom_points=inputs["bottom_points"], last_trick=inputs["last_trick"], reclaim=inputs["reclaim"],
        penalty_points=adjustment.get("penalty_points", 0),
        level_played=result.declarer_level_before, final_points=result.defender_points,
        declarer_keeps=result.declarer_keeps, ns_level=levels["NS"], ew_level=levels["EW"],
        next_declarer=result.next_declarer or "", match_won=result.match_won,
        explanation=list(result.items), recorded_by=user, recorded_at=clock.now(),
    )
    hand.stored_current = True   # the newest version, known without asking (Hand.is_current)
    return hand


def _check_open(match, number, *, correcting):
    """Refuse a hand the match no longer takes: over, or (a new hand) past the clock's last allowed hand."""
    if correcting:
        if match.status in Match.NOT_BY_HANDS or match.round.results_published_at is not None:
            raise HandConflict(gettext_noop("This match can no longer be corrected."), field="number")
        return
    if match.is_over:
        raise HandConflict(gettext_noop("The match is over; no more hands can be recorded."), field="number")
    if clock_services.hands_left(match, recorded=number - 1) == 0:
        raise HandConflict(gettext_noop("This table has played every hand allowed after the announcement."),
                           field="number")


def _write(match, user, number, *, inputs, correcting, entry=False) -> HandWritten:
    """Lock, check, read the match's records once, apply the hand to the kept state (or replay once),
    store it, settle the result, all in one transaction (an IntegrityError becomes a 409)."""
    with transaction.atomic():
        match = _lock_match(match, user)
        if not access.may(user, access.RECORD, match=match):   # who may record may see (a role in the event)
            if not access.may(user, access.VIEW, match=match):   # the event read only for a refusal
                raise NotFoundError(gettext_noop("No such match."), field="match")
            refuse_if_round_closed(user, match)   # the table's own referee: a 409 with the real reason
            raise HandRefused(gettext_noop("Only this table's referees and the chief referees may record "
                                           "hands here."), error_code="not_assigned")
        if not entry and recorders.of_match(match) == recorders.PLAYERS:
            raise HandRefused(gettext_noop("At this table the players record the hands and the other side confirms "
                                           "them: a referee decides their entries on the table page."),
                              field="number")
        if correcting:
            _check_open(match, number, correcting=True)
            if match.is_over and not access.may(user, access.DECIDE_RESULT, match=match):
                raise HandRefused(gettext_noop("This match is finished: only a chief referee may correct it."))
        record = match_record.read(match, whole=correcting)   # a correction replays the stored hands
        if record.kept is not None:
            return _apply(record, user, number, inputs=inputs)
        return _replay_and_write(record, user, number, inputs=inputs, correcting=correcting)


def _apply(record, user, number, *, inputs) -> HandWritten:
    """The next hand applied to the match's kept state: no ruling waits for it, so nothing is replayed."""
    match, kept = record.match, record.kept
    _check_number(number, kept.next_number)
    _check_open(match, number, correcting=False)
    state = apply_hand(kept.state, inputs)
    with snapshots.applying():   # this write keeps the state itself: the signal leaves it
        hand = _store(match, user, number, inputs=inputs, state=state, adjustment={})
    kept.state, kept.hand_id = state, hand.pk
    kept.hands.append(snapshots.KeptHand.of(hand))
    done = kept.replay
    results.settle(match, record=record.replayed(done))   # no live ruling may end the match (kept.waiting)
    snapshots.keep_applied(match, kept)
    return HandWritten(hand, match, done)


def _replay_and_write(record, user, number, *, inputs, correcting) -> HandWritten:
    """The hand recorded by a full replay (a correction, a ruling waiting for this hand, no kept state);
    the state it leaves is kept for the next write."""
    match, hands = record.match, record.hands
    adjustments = record.adjustments()
    if correcting:
        last = hands[-1].number if hands else 0
        if number < last:
            raise UserError(gettext_noop("Only the last hand (hand %(last)s) can be corrected."),
                            field="number", last=last)
        if number != last:
            raise HandConflict(gettext_noop("Hand %(number)s is not the last recorded hand; reload the "
                                            "table."), field="number", number=number)
        old, kept = hands[-1], hands[:-1]
        if inputs["outcome"] == Hand.Outcome.REBEL and old.outcome != Hand.Outcome.REBEL:
            # 004 二.7: a 造反 comes before the deal it abandons and holds no number of its own, while a deal
            # recorded keeps its number for good (Hand's unique constraints): a deal never becomes one
            raise UserError(gettext_noop("Hand %(number)s was recorded as a deal: it cannot be corrected into "
                                         "a rebellion."), field="outcome", number=number)
        if inputs["declarer_seat"] is None and number == 1:
            inputs["declarer_seat"] = old.declarer_seat
    else:
        _check_number(number, next_hand_number(hands, adjustments))
        _check_open(match, number, correcting=False)
        old, kept = None, hands
    state = replay(match, kept, adjustments, extra={number: inputs})
    # the row stores this hand's own result: a corrected hand may have hands decided by a ruling after it
    through = state if not correcting else replay(
        match, kept, {n: adjustment for n, adjustment in adjustments.items() if n <= number}, extra={number: inputs})
    with snapshots.applying():
        hand = _store(match, user, number, inputs=inputs, state=through, adjustment=adjustments.get(number, {}),
                      supersedes=old)
    after_hands = [*kept, hand]
    # a ruling may depend on the hand's declarer or score (e.g. one waiting for this hand's points):
    # the adjustments are recomputed for the new hands and the match replayed again only if they changed
    after = record.adjustments(after_hands)
    done = Replay(after_hands, after, state if after == adjustments else replay(match, after_hands, after))
    record = record.replayed(done)
    results.settle(match, record=record)
    snapshots.keep(match, done, entries=list(record.entries), ledger=record.ledger)
    return HandWritten(hand, match, done)


def record_hand(match, user, *, number, trump=None, defender_points=None, declarer=None, bottom_points=0,
                last_trick=None, reclaim=False, outcome=Hand.Outcome.PLAYED, called_by=None,
                entry=False) -> HandWritten:
    """Record the next hand of ``match`` and settle the match's result.

    Raises HandRefused (user not allowed), HandConflict (``number`` already recorded, match over) or
    UserError naming the field (out of sequence, bad input: the engine's messages). ``outcome`` "redeal":
    nobody declared trump (000 第五条), recorded with no score; the other inputs are not read. ``outcome``
    "rebel": 造反 (004 二.7), ``called_by`` the attacker's seat who called it and ``declarer`` the seat that
    won the new bidding; no score, and like a redeal it does not count as a hand after an announcement.
    Where the players record (``tournament.selfscore.modes``: "players"), only their confirmed or decided
    entries are written (``entry=True``, the entries' service); a referee's own hand is refused.
    """
    inputs = _inputs_for(outcome, trump=trump, defender_points=defender_points, declarer=declarer,
                         bottom_points=bottom_points, last_trick=last_trick, reclaim=reclaim, called_by=called_by)
    try:
        return _write(match, user, number, inputs=inputs, correcting=False, entry=entry)
    except IntegrityError as exc:
        raise _taken(number) from exc


def correct_last_hand(match, user, *, number, trump=None, defender_points=None, declarer=None, bottom_points=0,
                      last_trick=None, reclaim=False, outcome=Hand.Outcome.PLAYED, called_by=None,
                      entry=False) -> HandWritten:
    """Store a new version of the last hand (``number`` must be it) and settle the match's result again.

    Refused for a match ended by walkover, forfeit or bye, and once the round's results are published.
    A correction may reopen a match the corrected hand had won, or give it to the other side: the
    result service then moves the bracket (or refuses, naming the next match already begun).
    """
    inputs = _inputs_for(outcome, trump=trump, defender_points=defender_points, declarer=declarer,
                         bottom_points=bottom_points, last_trick=last_trick, reclaim=reclaim, called_by=called_by)
    try:
        return _write(match, user, number, inputs=inputs, correcting=True, entry=entry)
    except IntegrityError as exc:
        raise HandConflict(gettext_noop("Hand %(number)s was corrected by someone else at the same time; "
                                        "reload the table."), field="number", number=number) from exc

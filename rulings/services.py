"""Recording rulings: record, preview, void, approve, choose; each write settles the match's result.

Writers lock the Match row (``infra.db.lock_row``) inside ``transaction.atomic``, read the match's records
once (:class:`tournament.records.match.MatchRecord`: the kept state, or the hands and the rulings replayed
through the ledger), store one append-only row, and hand the record to the one owner of the match's result
(:func:`tournament.competition.results.settle`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from django.db import IntegrityError, transaction

from common.errors import ConflictError, ForbiddenError, UserError, gettext_noop
from common.seats import SEAT_SIDE
from infra import clock
from infra.db import lock_row
from rulings.engine import PenaltyLedger, normalise_side, offending_seat
from rulings.models import Appeal, Approval, ChoiceMade, Ruling, RulingVoid
from rulings.pair_removals import lift_undone_removals, remove_from_event, restore_if_lifted
from scoring.models import RuleProfile
from tournament import access
from tournament.competition import results
from tournament.models import Match
from tournament.records import match as match_record
from tournament.records import snapshots
from tournament.records.adjustments import TableState, needs_seat
from tournament.records.closing import MATCH_OVER, ended_for
from tournament.records.ledger import (
    REVERSED,
    VOID,
    Entry,
    entry_of,
    ledger_for,
    live_ledger,
    mark_new,
    match_entries,
    match_rulings,
    profile_table_source,
    ruling_state,
    sanction_dict,
)

NOTE_MAX = 2000   # a ruling's note: the referees' own (never on the public log)


class RulingError(UserError):
    """A refused ruling action (``field`` names the input at fault)."""


class Conflict(RulingError, ConflictError):
    """A concurrent write got there first (the API answers 409)."""


# --- recording -----------------------------------------------------------------------------------

def engine_call(func, **inputs):
    """Call the engine and turn its refusal into a RulingError naming the field.

    The engine raises :class:`UserError` with its ``field`` and a translatable message, passed on as
    they are; a plain ValueError of older code (``"field：message"``) still works: the field is read
    from the message's prefix when it names an input, and the prefix is left out of the message.
    """
    try:
        return func(**inputs)
    except UserError as exc:
        raise RulingError(exc.message, field=exc.field, **exc.params) from exc
    except ValueError as exc:
        message = str(exc)
        field = getattr(exc, "field", None)
        if field is None and "：" in message:
            prefix, rest = message.split("：", 1)
            if prefix in inputs or prefix == "code":
                field, message = prefix, rest
        raise RulingError(message, field=field) from exc


def sanction_inputs(code, side, *, minutes=None, cards=None, choice=None, role=None, seconds=None, waived_by=None):
    return {"code": code, "side": side, "minutes": minutes, "cards": cards,
            "choice": choice or None, "role": role or None, "seconds": seconds, "waived_by": waived_by or None}


def offender_role_in(side, role, state):
    """The offending side's role in the current hand: as given, else from the declaring side."""
    if role:
        return role
    declaring = state.declaring_side
    if declaring is None:
        return ""
    return "declarers" if declaring == side else "defenders"


def preview(match, code, side, *, minutes=None, cards=None, choice=None, role=None, seconds=None, waived_by=None):
    """The sanction that recording this offence now would give (nothing is stored)."""
    ledger = live_ledger(match, match_rulings(match))
    return engine_call(ledger.preview, **sanction_inputs(code, side, minutes=minutes, cards=cards, choice=choice,
                                                        role=role, seconds=seconds, waived_by=waived_by))


def lock_match(match_id, profile=None):
    """The match row, locked until the transaction ends (only the match row, not the joined ones).

    ``profile``: the RuleProfile the caller already read for this match; a version a match uses is
    never changed, so it is reused instead of reading (and decoding) the profile JSON again.
    """
    related = ("round", "ns", "ew", "hand_allowance")  # the allowance: for the clock's end-of-match check
    related = related if profile is not None else ("profile", *related)
    locked = lock_row(Match.objects.select_related(*related), match_id)
    if profile is not None:
        if locked.profile_id == profile.pk:
            locked.profile = profile
        else:  # the match moved to another version meanwhile: read that one
            locked.profile = RuleProfile.objects.get(pk=locked.profile_id)
    return locked


def record_ruling(match, user, code, side, *, minutes=None, cards=None, choice=None, role=None,
                  hand_number=None, declarer=None, note="", idempotency_key="", seconds=None, waived_by=None):
    """Store a ruling and return it; the same ``idempotency_key`` again returns the stored one.

    ``declarer`` (a seat) is needed only when the sanction moves the stage or the levels while the
    table has no declarer yet (the first hand before it is recorded). ``waived_by``: the non-offending
    side waives the sanction where the profile allows it (``PenaltyLedger.may_waive``); the ruling is
    stored (who recorded it, when) with no sanction and counts toward no escalation.
    """
    return record_ruling_entry(match, user, code, side, minutes=minutes, cards=cards, choice=choice, role=role,
                               hand_number=hand_number, declarer=declarer, note=note,
                               idempotency_key=idempotency_key, seconds=seconds, waived_by=waived_by).ruling


def record_ruling_entry(match, user, code, side, *, minutes=None, cards=None, choice=None, role=None,
                        hand_number=None, declarer=None, note="", idempotency_key="", seconds=None,
                        check=None, waived_by=None) -> Entry:
    """:func:`record_ruling`, returning the ruling as an :class:`Entry` (its sanction in force and state).

    The ruling applies to the match's kept state (``tournament.records.snapshots``: the ledger's running counts
    and the table state) when there is one, else the match's records are read and its rulings replayed once
    (``tournament.records.match.read``). ``check``: called with the locked match (its roles and assignment
    read for ``user``) before anything is written; the API passes its permission check, so it reads the
    match only once.
    """
    inputs = sanction_inputs(code, side, minutes=minutes, cards=cards, choice=choice, role=role, seconds=seconds,
                             waived_by=waived_by)
    given = Given(hand_number=hand_number, declarer=declarer, note=note, idempotency_key=idempotency_key)
    try:
        with transaction.atomic():
            locked = _lock_for_record(match, user)
            if check is not None:
                check(locked)
            existing = _with_key(locked, idempotency_key)
            if existing is not None:  # a retry: the stored ruling, presented in full
                return entry_of(locked, existing)
            _refuse_after_end(locked, user, inputs["code"])
            record = match_record.read(locked, kept_waiting=True)   # a new ruling adds to the kept counts
            if record.kept is not None:
                return _create_on_kept(record, user, inputs, given=given)
            return _create_ruling(record, user, inputs, given=given)
    except IntegrityError as exc:
        raise Conflict(gettext_noop("Another ruling was recorded at the same time; reload and try again.")) from exc


def _lock_for_record(match, user):
    """The match locked, then read with its round and kept state (its rule profile the process's copy), and
    with the event and ``user``'s assignment the permission check needs."""
    queryset = Match.objects.select_related("round", "hand_allowance", "engine_snapshot")
    return access.remember_access(user, match_record.lock(access.with_access(queryset, user), match.pk))


def _refuse_after_end(match, user, code):
    """A new ruling at a match that ended: a chief referee's only (``tournament.records.closing.ended_for``); a 409."""
    if ended_for(user, match, code):
        raise Conflict(MATCH_OVER, field="match")


def _with_key(match, idempotency_key):
    """The ruling of ``match`` recorded with this client key, if any (the lock makes the answer final)."""
    if not idempotency_key:
        return None
    return Ruling.objects.filter(match_id=match.pk, idempotency_key=idempotency_key).first()


def _check_table(match, note):
    if match.status in (Match.Status.BYE, Match.Status.WALKOVER) or match.ns_id is None or match.ew_id is None:
        raise RulingError(gettext_noop("There is no play at this table, so no ruling can be recorded."), field="match")
    if len(note or "") > NOTE_MAX:   # the API's and the console's limit, for every caller
        raise RulingError(gettext_noop("The note may be at most %(max)s characters."), field="note", max=NOTE_MAX)


@dataclass(frozen=True)
class Given:
    """What the referee gave with the offence: the hand it belongs to, the declarer seat when the table has
    none yet, the note, and the console's client key."""

    hand_number: int | None = None
    declarer: str | None = None
    note: str = ""
    idempotency_key: str = ""


def _create_ruling(record, user, inputs, *, given) -> Entry:
    """Store the new ruling of the (locked) match and bring the match up to date; returns its Entry.

    ``record``: the match's records read whole (no kept state): the ledger holding the live rulings records
    the new offence on top of them, and the new ruling's entry is appended to theirs (it is the latest, so
    the earlier sanctions stay as they are). The state the write leaves is kept for the next one.
    """
    match = record.match
    _check_table(match, given.note)
    sanction = engine_call(record.ledger.record, **inputs)
    before = record.replay_now()
    sequence = max((entry.ruling.sequence for entry in record.entries), default=0) + 1
    entry, decided = _store_ruling(match, user, inputs, given=given, sanction=sanction, before=before,
                                   sequence=sequence)
    record = record.with_entry(entry).replayed(before)
    if decided or _touches_scores(entry.ruling, before.hands):
        record = record.replayed(record.replay_now())
        results.settle(match, record=record)
    snapshots.keep(match, record.replay, entries=list(record.entries), ledger=record.ledger)
    if decided:
        remove_from_event(match, user, entry.ruling, sanction=sanction)
    return entry


def _create_on_kept(record, user, inputs, *, given) -> Entry:
    """The new ruling applied to the match's kept state: the ledger resumes from the kept counts, the table
    state is the kept one; only a ruling that changes the replay now (or that a chief referee decides at
    once) reads the match's hands and every ruling (the new one too) and replays it."""
    match, kept = record.match, record.kept
    _check_table(match, given.note)
    ledger = PenaltyLedger.resume(profile_table_source(match.profile), kept.tally)
    sanction = engine_call(ledger.record, **inputs)
    before = kept.replay
    entry, decided = _store_ruling(match, user, inputs, given=given, sanction=sanction, before=before,
                                   sequence=kept.sequence + 1)
    if decided or _touches_scores(entry.ruling, before.hands):
        # the stored hands: the kept ones hold no bottom, last trick or outcome
        whole = match_record.read(match, whole=True)
        whole = whole.replayed(whole.replay_now())
        results.settle(match, record=whole)
        snapshots.keep(match, whole.replay, entries=list(whole.entries), ledger=whole.ledger)
    else:
        kept.tally, kept.sequence, kept.ruling_id = ledger.tally(), entry.ruling.sequence, entry.ruling.pk
        kept.waiting = kept.waiting or snapshots.waiting([entry], kept.next_number)
        snapshots.keep_applied(match, kept)
    if decided:
        remove_from_event(match, user, entry.ruling, sanction=sanction)
    return entry


def _store_ruling(match, user, inputs, *, given, sanction, before, sequence):
    """Check the hand number against the table state ``before`` and store the Ruling (and the chief's
    approval when the chief decides it at once); returns (its Entry, decided)."""
    state = with_declarer(TableState.of(before.state), given.declarer, sanction)
    hand_number = 1 if sanction.effect.applies_to == "first_hand" else given.hand_number
    hand_number = _check_hand_number(hand_number or state.hand_number, state.hand_number)
    side, seat = normalise_side(inputs["side"]), offending_seat(inputs["side"])
    context = {"declarer": state.declarer, "levels": state.levels, "level_played": state.level_played,
               "hand_number": state.hand_number}
    with snapshots.applying():   # the caller keeps the state itself: the signal leaves it
        ruling = mark_new(Ruling.objects.create(
            match=match, sequence=sequence, hand_number=hand_number, code=inputs["code"], side=side, seat=seat,
            role=inputs["role"] or "", waived_by=sanction.waived_by or "",
            offender_role=offender_role_in(side, inputs["role"], state),
            minutes=inputs["minutes"], seconds=inputs["seconds"], cards=inputs["cards"],
            choice=inputs["choice"] or "", sanction=sanction_dict(sanction), clause=sanction.clause[:120],
            table=match.table, profile=match.profile, profile_version=match.profile.version, context=context,
            note=given.note or "", idempotency_key=given.idempotency_key or "", recorded_by=user,
            recorded_at=clock.now()))
        decided = _chief_decides(match, user, ruling, sanction=sanction)
    return Entry(ruling, sanction, ruling_state(ruling, sanction)), decided


def _chief_decides(match, user, ruling, *, sanction) -> bool:
    """A match loss or forfeit a chief referee records is decided by that act (the chief is the approving
    authority; the Approval row says who), unless the profile asks for a second person
    (``sanctions.approval_needs_second_person``). A table referee's proposal waits for a chief."""
    second = bool((match.profile.data.get("sanctions") or {}).get("approval_needs_second_person"))
    if not sanction.needs_approval or sanction.pending_choice or second:
        return False
    if not access.may(user, access.APPROVE, match=match):
        return False
    row = Approval.objects.create(ruling=ruling, approved=True, decided_by=user, decided_at=ruling.recorded_at)
    Ruling.approval.related.set_cached_value(ruling, row)
    return True


def _touches_scores(ruling, hands):
    """Does a new ruling change the replayed match now? Levels and stage do; points only when their
    hand is already recorded (``hands``: the current hands; else the scoring layer counts them when
    the hand is recorded)."""
    snapshot = ruling.sanction
    effect = snapshot.get("effect", {})
    if _automatic_forfeit(snapshot):
        return True
    if effect.get("stage") or effect.get("levels") or effect.get("drop_to") or effect.get("levels_per_points"):
        return True
    return bool(snapshot.get("points")) and any(hand.number == ruling.hand_number
                                                for hand in hands if getattr(hand, "outcome", "") != "rebel")


def _automatic_forfeit(snapshot) -> bool:
    """A match forfeit the document applies without approval (000/002/003 lateness): it ends the match
    as soon as it is recorded (a chief referee can still void it)."""
    kinds = set(snapshot.get("kinds") or ())
    return bool(kinds & {"match_forfeit", "disqualification"}) and not snapshot.get("needs_approval")


def with_declarer(state, declarer, sanction):
    """The table state, with the declarer seat the referee gave when the table has none yet."""
    if state.declarer is not None:
        return state
    if declarer:
        if declarer not in SEAT_SIDE:
            raise RulingError(gettext_noop("The declarer must be a seat (N/E/S/W), not %(value)s."),
                              field="declarer", value=repr(declarer))
        return dataclasses.replace(state, declarer=declarer)
    if needs_seat(sanction.effect.award_kwargs(None)):
        raise RulingError(gettext_noop("No declarer is recorded for this hand yet: give this hand's declarer seat."),
                          field="declarer")
    return state
def _check_hand_number(value, in_play):
    """A ruling belongs to a recorded hand or to the hand in play (``in_play``), never to a later one."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RulingError(gettext_noop("The hand number must be a whole number of at least 1, not %(value)s."),
                          field="hand_number", value=repr(value))
    if value > in_play:
        raise RulingError(gettext_noop("Hand %(number)s has not started: the table is playing hand %(in_play)s."),
                          field="hand_number", number=value, in_play=in_play)
    return value


def void_ruling(ruling, user, reason=""):
    """Void a ruling (a new RulingVoid row); later sanctions are recomputed by the replay.

    A ruling the chief referee approved, that is under appeal or that forfeited the match by itself
    (an automatic lateness forfeit) is voided by a chief referee only: a table referee cannot undo a
    decision taken above them, nor reopen a finished match.
    """
    decided_above = (_automatic_forfeit(ruling.sanction or {}) or Approval.objects.filter(ruling=ruling).exists()
                     or Appeal.objects.filter(ruling=ruling).exists())
    if decided_above and not access.may(user, access.APPROVE, match=ruling.match):
        raise ForbiddenError(gettext_noop("This ruling was approved or is under appeal: only a chief referee "
                                          "can void it."))
    try:
        with transaction.atomic():
            match = lock_match(ruling.match_id)
            if RulingVoid.objects.filter(ruling=ruling).exists():
                raise RulingError(gettext_noop("This ruling is already void."), field="ruling")
            row = RulingVoid.objects.create(ruling=ruling, reason=reason or "", voided_by=user,
                                            voided_at=clock.now())
            entries = match_entries(match)
            apply_match_result(match, entries)
            restore_if_lifted(match, user, ruling, reason=reason)
            lift_undone_removals(match, user, entries, reason=reason)
            return row
    except IntegrityError as exc:
        raise Conflict(gettext_noop("This ruling has just been voided by someone else."), field="ruling") from exc


def last_live_ruling(match):
    """The latest ruling of the match that is not void (None when there is none)."""
    return (Ruling.objects.filter(match=match, void__isnull=True).order_by("-sequence").first())


def void_last_ruling(match, user, reason=""):
    """Void the match's latest non-void ruling (the console's undo)."""
    ruling = last_live_ruling(match)
    if ruling is None:
        raise RulingError(gettext_noop("This match has no ruling to void."), field="ruling")
    return void_ruling(ruling, user, reason)


# --- approvals and choices -------------------------------------------------------------------------

def approve(ruling, user, *, approved=True, note=""):
    """The chief referee approves (or rejects) a proposed match forfeit or disqualification.

    The person who recorded the ruling may not decide on it. An approved forfeit ends the match.
    """
    if ruling.recorded_by_id == user.pk:
        raise ForbiddenError(gettext_noop("Whoever recorded a ruling cannot approve it."))
    try:
        with transaction.atomic():
            match = lock_match(ruling.match_id)
            entry = entry_of(match, ruling)
            if entry.state in (VOID, REVERSED) or not entry.sanction.needs_approval:
                raise RulingError(gettext_noop("This ruling needs no approval."), field="ruling")
            if Approval.objects.filter(ruling=ruling).exists():
                raise RulingError(gettext_noop("This ruling has already been approved or rejected."), field="ruling")
            row = Approval.objects.create(ruling=ruling, approved=bool(approved), note=note or "",
                                          decided_by=user, decided_at=clock.now())
            apply_match_result(match)  # approved: the forfeit ends the match; rejected: the rest applies
            if row.approved:
                remove_from_event(match, user, ruling, sanction=entry.sanction)
            return row
    except IntegrityError as exc:
        raise Conflict(gettext_noop("Someone else has just decided on this ruling."), field="ruling") from exc
def record_choice(ruling, user, side, option):
    """Record which option the non-offending ``side`` chose; the sanction then takes effect."""
    side = engine_call(lambda side: normalise_side(side), side=side)
    try:
        with transaction.atomic():
            match = lock_match(ruling.match_id)
            entry = entry_of(match, ruling)
            if entry.sanction is None or not entry.sanction.pending_choice:
                raise RulingError(gettext_noop("This ruling has no choice pending."), field="ruling")
            if side != entry.sanction.beneficiary:
                raise RulingError(gettext_noop("Only the non-offending side chooses."), field="side")
            ledger = ledger_for(match.profile)
            engine_call(ledger.preview, code=ruling.code, side=ruling.side, minutes=ruling.minutes,
                         cards=ruling.cards, choice=option, role=ruling.role or None, seconds=ruling.seconds)
            row = ChoiceMade.objects.create(ruling=ruling, side=side, option=str(option), recorded_by=user,
                                            recorded_at=clock.now())
            apply_match_result(match)
            return row
    except IntegrityError as exc:
        raise Conflict(gettext_noop("The choice on this ruling has already been recorded."), field="ruling") from exc

def apply_match_result(match, entries=None, *, hands=None):
    """Settle the (locked) match's result after a ruling's row was added, inside the caller's transaction.

    ``match`` must be the instance locked by :func:`lock_match` (it is updated in place); its records are
    read as the new row leaves them (``tournament.records.match.of``); ``entries`` and ``hands``: the match's
    replayed rulings and current hands, when already read after the row.
    """
    return results.settle(match, record=match_record.of(match, entries=entries, hands=hands))

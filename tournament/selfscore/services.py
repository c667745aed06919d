"""The players record, the opponents confirm, a floor referee decides: the writes.

    enter_hand(match, code, *, address, number, kind="new", inputs) -> HandEntry
    confirm_entry(entry, code, *, address) -> Settled(entry, step, written)
    dispute_entry(entry, code, *, address, note="") -> EntryStep
    withdraw_entry(entry, code, *, address) -> EntryStep
    decide_entry(entry, user, *, action, inputs=None, note="") -> Settled

``code`` is the side's code as typed (:mod:`.codes` checks it: a wrong one is counted and slowed); ``inputs``
the hand as :func:`scoring.services.record_hand` takes it (outcome, trump, defender_points, declarer,
bottom_points, last_trick, reclaim, called_by). A hand counts only once the other side confirmed it or a
referee decided it: then, and only then, the hand service records it (``record_hand``, or
``correct_last_hand`` for a correction), so the levels, the result, the standings, the hall and the bracket
move as for a referee's hand and never before. Each write locks the Match row first (the hand service locks
it again in the same transaction), so one table's entries and confirmations run one at a time.

Rules: the players enter only where they record (``modes``), while the match is open; one entry at a time
(the next hand after the previous one is confirmed); a side never confirms its own entry; a dispute stops
the table until a referee of the match (``access.may(user, RECORD)``: its floor referee, a chief) decides:
``confirm`` (as entered), ``record`` (the hand as it was, ``inputs``) or ``reject`` (nothing recorded); at
time-up the referee decides a waiting entry the same way. The entering side may withdraw its entry before
the other side answers.
"""
from __future__ import annotations

from typing import NamedTuple

from django.db import transaction

from common.errors import ConflictError, ForbiddenError, NotFoundError, UserError, gettext_noop
from infra import clock
from infra.db import lock_row
from scoring import services as hands
from scoring.models import Hand
from tournament import access
from tournament.models import EntryStep, HandEntry, Match
from tournament.selfscore import codes, modes, players, waiting

KINDS = tuple(HandEntry.Kind.values)
ACTIONS = ("confirm", "record", "reject")
#: The hand service's keyword arguments an entry keeps (its ``inputs``).
INPUT_KEYS = ("outcome", "trump", "defender_points", "declarer", "bottom_points", "last_trick", "reclaim",
              "called_by")
NOTE_MAX = 300


class Settled(NamedTuple):
    """An entry's ending: the step stored and, unless rejected, the hand service's ``HandWritten``."""

    entry: HandEntry
    step: EntryStep
    written: object


def _locked(match_id):
    try:
        return lock_row(Match.objects.select_related("round__stage__event"), match_id)
    except Match.DoesNotExist as exc:
        raise NotFoundError(gettext_noop("No such match."), field="match") from exc


def _entry_at(entry, match_id=None):
    """The entry (read anew) after its match is locked; 404 for an entry of another match. ``match_id``: the
    match the request names (the API's), locked at once; else the entry's own."""
    entry_id = entry.pk if isinstance(entry, HandEntry) else entry
    if match_id is None:
        match_id = (entry.match_id if isinstance(entry, HandEntry) else
                    HandEntry.objects.filter(pk=entry_id).order_by().values_list("match_id", flat=True).first())
    match = _locked(match_id) if match_id is not None else None
    found = match and waiting.read_one(entry_id, match_id=match_id)   # its state read under the lock
    if not found:
        raise NotFoundError(gettext_noop("No such entry at this table."), field="entry")
    found.match = match
    return found


def _clean_inputs(inputs) -> dict:
    if not isinstance(inputs, dict):
        raise UserError(gettext_noop("Give the hand as entered."), field="inputs")
    unknown = sorted(set(inputs) - set(INPUT_KEYS))
    if unknown:
        raise UserError(gettext_noop("Unknown field: %(name)s."), field=unknown[0], name=unknown[0])
    clean = {key: inputs[key] for key in INPUT_KEYS if key in inputs}
    clean.setdefault("outcome", Hand.Outcome.PLAYED)
    if clean["outcome"] not in Hand.Outcome.values:
        raise UserError(gettext_noop("Unknown outcome: choose one of %(choices)s."), field="outcome",
                        choices="/".join(Hand.Outcome.values))
    return clean


def _step(entry, state, **fields) -> EntryStep:
    return EntryStep.objects.create(entry=entry, state=state, at=clock.now(), **fields)


def _refuse_unless_open(entry, *, states=waiting.OPEN):
    if entry.state == waiting.LAPSED:
        raise ConflictError(gettext_noop("This entry no longer counts: hand %(number)s was recorded otherwise; "
                                         "reload the table."), field="entry", number=entry.number)
    if entry.state not in states:
        if entry.state == waiting.DISPUTED:
            raise ConflictError(gettext_noop("This hand is disputed: the floor referee decides it."),
                                field="entry")
        raise ConflictError(gettext_noop("This entry is no longer waiting; reload the table."), field="entry")


def _last_hand(match):
    return (Hand.objects.filter(match_id=match.pk, superseded_by__isnull=True).order_by("-number")
            .only("pk", "number").first())


def _check_number(match, number, kind):
    """A new hand's number must be past the recorded ones (the hand service checks it is the next one at the
    confirmation); a correction's the last recorded hand's. Returns the hand a correction replaces."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise UserError(gettext_noop("The hand number must be a whole number."), field="number")
    last = _last_hand(match)
    if kind == HandEntry.Kind.CORRECTION:
        if last is None or number != last.number:
            raise UserError(gettext_noop("Only the last hand (hand %(last)s) can be corrected."), field="number",
                            last=last.number if last else 0)
        return last
    if last is not None and number <= last.number:
        raise ConflictError(gettext_noop("Hand %(number)s was already recorded; reload the table."),
                            field="number", number=number)
    return None


@transaction.atomic
def enter_hand(match, code, *, address: str, number: int, kind: str = HandEntry.Kind.NEW, inputs: dict) -> HandEntry:
    """One side's entry of hand ``number`` (a new hand, or a ``correction`` of the last one), waiting for the
    other side. Refused: where the referee records, a match over, another entry still open (the previous hand
    first), a wrong code."""
    match = _locked(match.pk)
    side = codes.side_of(match, code, address=address)
    if not modes.players_record(match):
        raise ForbiddenError(gettext_noop("The referee records the hands at this table."), field="match")
    if kind not in KINDS:
        raise UserError(gettext_noop("Choose a new hand or a correction of the last one."), field="kind")
    clean = _clean_inputs(inputs)
    if waiting.open_entry(match) is not None:
        raise ConflictError(gettext_noop("The hand entered before waits for confirmation: confirm it (or let the "
                                         "floor referee decide) before entering the next."), field="number")
    base = _check_number(match, number, kind)
    entry = HandEntry.objects.create(match=match, number=number, kind=kind, side=side.side, code=side,
                                     inputs=clean, base_hand=base, entered_at=clock.now())
    entry.state = waiting.WAITING   # as made: no step yet
    return entry


def _record(entry, user, inputs):
    """The hand service's write of ``entry``'s hand with ``inputs`` by ``user``."""
    service = hands.correct_last_hand if entry.kind == HandEntry.Kind.CORRECTION else hands.record_hand
    return service(entry.match, user, number=entry.number, entry=True, **inputs)


@transaction.atomic
def confirm_entry(entry, code, *, address: str, match_id=None) -> Settled:
    """The other side confirms ``entry``: the hand is recorded now (a correction replaces the last hand).
    Refused with the code of the side that entered it, and once disputed (the referee decides then)."""
    entry = _entry_at(entry, match_id)
    side = codes.side_of(entry.match, code, address=address)
    _refuse_unless_open(entry, states=(waiting.WAITING,))
    if side.side == entry.side:
        raise ForbiddenError(gettext_noop("Your side entered this hand: the other side confirms it."), field="code")
    written = _record(entry, players.writing_for(entry.match), dict(entry.inputs))
    step = _step(entry, EntryStep.State.CONFIRMED, side=side.side, code=side, hand=written.hand)
    return Settled(entry, step, written)


def _note(note) -> str:
    text = " ".join(str(note or "").split())
    if len(text) > NOTE_MAX:
        raise UserError(gettext_noop("The note is too long (at most %(most)s characters)."), field="note",
                        most=NOTE_MAX)
    return text


@transaction.atomic
def dispute_entry(entry, code, *, address: str, note: str = "", match_id=None) -> EntryStep:
    """A side disputes the waiting ``entry`` (有异议): the table stops until the floor referee decides."""
    entry = _entry_at(entry, match_id)
    side = codes.side_of(entry.match, code, address=address)
    _refuse_unless_open(entry, states=(waiting.WAITING,))
    return _step(entry, EntryStep.State.DISPUTED, side=side.side, code=side, note=_note(note))


@transaction.atomic
def withdraw_entry(entry, code, *, address: str, match_id=None) -> EntryStep:
    """The side that entered ``entry`` takes it back before the other side answered (a slip of the finger)."""
    entry = _entry_at(entry, match_id)
    side = codes.side_of(entry.match, code, address=address)
    _refuse_unless_open(entry, states=(waiting.WAITING,))
    if side.side != entry.side:
        raise ForbiddenError(gettext_noop("Only the side that entered a hand may withdraw it; dispute it "
                                          "instead."), field="code")
    return _step(entry, EntryStep.State.WITHDRAWN, side=side.side, code=side)


def may_decide(user, match) -> bool:
    """May ``user`` decide the entries of ``match``: a referee of the match (its floor referee) or a chief."""
    return access.may(user, access.RECORD, match=match)


@transaction.atomic
def decide_entry(entry, user, *, action: str, inputs: dict | None = None, note: str = "", match_id=None) -> Settled:
    """A referee of the match decides the open ``entry`` (disputed, or waiting at time-up): ``confirm`` records
    it as entered, ``record`` records ``inputs`` instead (the hand as it was), ``reject`` records nothing."""
    entry = _entry_at(entry, match_id)
    if not may_decide(user, entry.match):
        if not access.may(user, access.VIEW, match=entry.match):
            raise NotFoundError(gettext_noop("No such match."), field="match")
        raise ForbiddenError(gettext_noop("Only this table's referees and the chief referees may decide its "
                                          "hands."), error_code="not_assigned")
    if action not in ACTIONS:
        raise UserError(gettext_noop("Choose: confirm as entered, record the hand as it was, or reject."),
                        field="action")
    _refuse_unless_open(entry)
    written = None
    if action == "confirm":
        written = _record(entry, user, dict(entry.inputs))
    elif action == "record":
        written = _record(entry, user, _clean_inputs(inputs or {}))
    step = _step(entry, EntryStep.State.DECIDED, by=user, hand=getattr(written, "hand", None), note=_note(note))
    return Settled(entry, step, written)

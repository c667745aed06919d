"""A match's engine state kept between requests, so a new hand or ruling applies to it instead of replaying.

    read(queryset, match_id) -> Match       lock the Match row, then read it with its kept state (fresh)
    kept(match) -> Kept | None              the kept state of a match read by :func:`read`, if it still holds
    version_of(match) -> str                the kept state's version (its last hand and ruling ids)
    keep(match, replay, *, entries, ledger) keep the state a full replay gave (after a write that replayed)
    keep_applied(match, kept)               keep the state a fast write moved on
    forget(match_ids)                       drop the kept state (a write that does not apply to it)
    applying()                              context: rows written inside belong to a fast write

The state kept (``MatchSnapshot``) holds what the next write needs and nothing it would have to read: the
engine's ``MatchState`` (levels, declarer, every hand's result), the current hands' inputs and recorders
as the table page shows them, the numbers decided by a ruling, the penalty ledger's running counts, the
last ruling's sequence, and whether a live ruling still waits for a hand not yet recorded (or may end
the match): then the hand path replays the match in full, as every write did before.

It is versioned by the last hand and ruling ids and the rule-profile version. Every other writer of hands,
rulings, voids, approvals, choices and appeals drops it (a signal, :func:`drop_on_write`, catches rows
written anywhere else, the admin and tests included), and the next write replays the match and keeps a
new one. ``manage.py verify_replay`` replays whole events and compares (``scoring.replay_check``).

The Match row is locked first and the kept state read afterwards, in a statement of its own: PostgreSQL
re-reads a locked row after waiting for it but not the rows joined to it, so a state read in the locking
statement could predate the write the lock waited for.
"""
from __future__ import annotations

import contextvars
import datetime as dt
from contextlib import contextmanager
from dataclasses import dataclass, field

from infra.db import lock_row
from scoring.engine import MatchState
from scoring.models import Hand, MatchSnapshot
from scoring.profile_store import engine_profile, shared_version
from tournament.models import Match
from tournament.records.hands import Replay
from tournament.records.ledger import LIVE_STATES

FORMAT = 2   # 2: every hand's result holds its explanation's items
ENDS_MATCH = frozenset({"match_forfeit", "disqualification"})
_TRUMPS = dict(Hand.Trump.choices)
_applying = contextvars.ContextVar("snapshot_applying", default=False)


@dataclass
class KeptHand:
    """A current hand as the state answer shows it (the fields of a Hand the table page reads)."""

    number: int
    pk: int
    version: int
    trump: str
    defender_points: int
    declarer_seat: str
    recorder_name: str
    recorded_at: dt.datetime
    stored: list | None = field(default=None, compare=False, repr=False)   # the row it was read from
    outcome: str = Hand.Outcome.PLAYED   # only a 造反's is read (it holds no hand number): the others' rows
                                         # stay as they were kept before, so a kept state still compares

    def get_trump_display(self):
        return str(_TRUMPS.get(self.trump, self.trump))

    @classmethod
    def of(cls, hand):
        if isinstance(hand, KeptHand):
            return hand
        return cls(hand.number, hand.pk, hand.version, hand.trump, hand.defender_points, hand.declarer_seat,
                   hand.recorder_name, hand.recorded_at, outcome=hand.outcome)

    def row(self):
        """The hand as the kept state stores it (the row it was read from, as it was: a hand never changes)."""
        if self.stored is None:
            self.stored = [self.number, self.pk, self.version, self.trump, self.defender_points, self.declarer_seat,
                           self.recorder_name, self.recorded_at.isoformat()]
            if self.outcome == Hand.Outcome.REBEL:
                self.stored.append(self.outcome)
        return self.stored

    @classmethod
    def from_row(cls, row):
        number, pk, version, trump, points, seat, name, at, *outcome = row
        return cls(number, pk, version, trump, points, seat, name, dt.datetime.fromisoformat(at), row,
                   *outcome)


@dataclass
class Kept:
    """The kept state of a match: apply a hand or a ruling to it, then :func:`keep_applied`."""

    state: MatchState
    hands: list
    ruled: tuple
    tally: dict
    sequence: int
    waiting: bool
    hand_id: int
    ruling_id: int

    @property
    def replay(self) -> Replay:
        """The kept state as the scoring layer's Replay (no adjustments: none waits on a hand to come)."""
        return Replay(self.hands, {}, self.state, ruled=self.ruled)

    @property
    def next_number(self) -> int:
        return self.replay.next_number


def read(queryset, match_id):
    """Lock the Match row ``match_id`` for the transaction, then read it from ``queryset`` (Match rows with
    ``engine_snapshot`` selected, not the profile) with its kept state: two statements (see the module's
    note). The rule-profile version is the process's shared copy
    (:func:`scoring.profile_store.shared_version`), not read again. Raises Match.DoesNotExist."""
    lock_row(Match.objects.only("pk"), match_id)
    match = queryset.get(pk=match_id)
    match.profile = shared_version(match.profile_id)
    return match


def _row(match):
    try:
        return match.engine_snapshot
    except MatchSnapshot.DoesNotExist:
        return None


def version_of(match) -> str:
    """The version of the kept state read with ``match`` (its last hand, last ruling and profile version;
    "-" without one), for caches of what the state says; reads no ``data`` (it may be deferred)."""
    row = _row(match)
    return "-" if row is None else f"{row.hand_id}.{row.ruling_id}.{row.profile_id}"


def kept(match) -> Kept | None:
    """The match's kept state, or None when there is none or it was played under another profile version."""
    row = _row(match)
    if row is None or row.profile_id != match.profile_id or row.data.get("format") != FORMAT:
        return None
    data = row.data
    state = MatchState.from_dict(engine_profile(match.profile), data["state"])
    return Kept(state, [KeptHand.from_row(item) for item in data["hands"]], tuple(data["ruled"]), data["tally"],
                data["sequence"], data["waiting"], row.hand_id, row.ruling_id)


def waiting(entries, next_number) -> bool:
    """Does a live ruling wait for a hand not yet recorded, or may one end the match? Then the next hand
    is recorded by a full replay (its adjustment and the result depend on the rulings)."""
    for entry in entries:
        if entry.state not in LIVE_STATES or entry.sanction is None:
            continue
        if entry.ruling.hand_number >= next_number or entry.sanction.kinds & ENDS_MATCH:
            return True
    return False


def of_replay(replay, entries, ledger) -> Kept:
    """The state to keep after a full replay: ``replay`` (hands and rulings), ``entries`` (every ruling as
    an Entry) and ``ledger`` (the penalty ledger holding the live rulings)."""
    rulings = [entry.ruling for entry in entries]
    played = {hand.number for hand in replay.hands if hand.outcome != Hand.Outcome.REBEL}
    return Kept(replay.state, [KeptHand.of(hand) for hand in replay.hands],
                tuple(n for n in replay.numbers if n not in played), ledger.tally(),
                max((r.sequence for r in rulings), default=0), waiting(entries, replay.next_number),
                max((hand.pk for hand in replay.hands), default=0), max((r.pk for r in rulings), default=0))


def keep(match, replay, *, entries, ledger):
    """Keep the state a full replay gave (see :func:`of_replay`)."""
    _store(match, of_replay(replay, entries, ledger))


def keep_applied(match, kept_state):
    """Store the kept state a fast write moved on."""
    _store(match, kept_state)


def stored_form(match, k) -> dict:
    """The fields of the MatchSnapshot row that keeps ``k`` (``data`` as JSON-ready data)."""
    tally = {**k.tally, "offences": sorted(k.tally["offences"])}
    data = {"format": FORMAT, "state": k.state.to_dict(), "hands": [hand.row() for hand in k.hands],
            "ruled": list(k.ruled), "tally": tally, "sequence": k.sequence, "waiting": k.waiting}
    return {"profile_id": match.profile_id, "hand_id": k.hand_id, "ruling_id": k.ruling_id, "data": data}


def _store(match, k):
    """Update the match's row, or create it on the match's first write (the caller holds the match's lock)."""
    fields = stored_form(match, k)
    if not MatchSnapshot.objects.filter(match_id=match.pk).update(**fields):
        MatchSnapshot.objects.create(match_id=match.pk, **fields)


def forget(match_ids):
    """Drop the kept state of these matches (the next write replays them)."""
    MatchSnapshot.objects.filter(match_id__in=list(match_ids)).delete()


@contextmanager
def applying():
    """Rows saved inside belong to a write that keeps the state itself: the signal leaves it alone."""
    token = _applying.set(True)
    try:
        yield
    finally:
        _applying.reset(token)


def drop_on_write(sender, instance, created=False, **kwargs):
    """Signal receiver (hands, rulings and the rows that change a ruling's state): a row written outside
    a fast write drops its match's kept state."""
    if _applying.get():
        return
    match_id = getattr(instance, "match_id", None)
    if match_id is not None:
        forget([match_id])
        return
    ruling_id = getattr(instance, "ruling_id", None)
    if ruling_id is None and hasattr(instance, "appeal_id"):
        MatchSnapshot.objects.filter(match__rulings__appeals=instance.appeal_id).delete()
        return
    if ruling_id is not None:
        MatchSnapshot.objects.filter(match__rulings=ruling_id).delete()

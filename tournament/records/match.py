"""A match's records as one object: what a write reads once, under the match's lock, and hands on.

    MatchRecord(match, hands, entries, ledger, kept, replay)
    lock(queryset, match_id) -> Match          lock the row, then read it with its kept state (fresh)
    read(match, *, whole=False, kept_waiting=False) -> MatchRecord
                                                the records of a locked match: its kept state when that
                                                stands for them, else its current hands and every ruling
    of(match, *, replay=None, entries=None, hands=None) -> MatchRecord   from what a caller read

The hand and ruling services read a match's records here and nowhere else; the engines replay them
(``scoring.engine`` through :mod:`tournament.records.hands`, ``rulings.engine.PenaltyLedger`` through
:mod:`tournament.records.ledger`), and the result service (:func:`tournament.competition.results.settle`)
takes the record as it stands after the write: its replay, the approved forfeit and a result kept on
appeal come from the record, so the result service reads no ruling of its own.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from rulings.engine import explanation_text
from tournament.records import adjustments as rulings_adjust
from tournament.records import snapshots
from tournament.records.adjustments import approved_forfeit, standing_result
from tournament.records.hands import Replay, current_hands, load_replay
from tournament.records.ledger import Entry, ledger_and_entries, match_entries

FORFEIT_NOTE_MAX = 200   # the result note's share of a forfeit's explanation


@dataclass(frozen=True)
class MatchRecord:
    """One match's records as a write read them (the Match row locked by the caller).

    ``kept``: the kept engine state (``tournament.records.snapshots``) when it stands for the hands and
    rulings (for a new hand: no live ruling waits for a hand or may end the match; for a new ruling: always,
    :func:`read`'s ``kept_waiting``), so neither is read (``hands`` None, ``entries`` empty). Otherwise ``hands`` are the current Hand rows, ``entries`` every ruling with its
    sanction in force and its state, and ``ledger`` the penalty ledger holding the live ones. ``replay``:
    the match replayed from them (set by the write once it has stored its row: :meth:`replayed`).
    """

    match: object
    hands: list | None = None
    entries: tuple = ()
    ledger: object = None
    kept: snapshots.Kept | None = None
    replay: Replay | None = None

    @property
    def whole(self) -> bool:
        """Were the hands and rulings read (not stood for by the kept state)?"""
        return self.hands is not None

    def adjustments(self, hands=None) -> dict:
        """What the live rulings do to each hand (``tournament.records.adjustments.adjustments_for``, the
        replay's one hook) over ``hands`` (the record's own by default)."""
        adjust = rulings_adjust.adjustments_for(self.match, list(self.entries))
        return adjust(self.hands if hands is None else hands)

    def replay_now(self) -> Replay:
        """The match replayed from the record's hands and rulings (a record read whole)."""
        return load_replay(self.match, hands=self.hands, adjust=self.adjustments)

    def replayed(self, replay) -> MatchRecord:
        """The record with ``replay``: the match as a write left it (its hands the replay's, when read)."""
        return dataclasses.replace(self, replay=replay, hands=list(replay.hands) if self.whole else None)

    def with_entry(self, entry: Entry) -> MatchRecord:
        """The record with one ruling more (the latest: the earlier sanctions stay as they are)."""
        return dataclasses.replace(self, entries=(*self.entries, entry))

    @property
    def forfeit(self):
        """The approved match forfeit in force as (winner side or None when both sides forfeit, its note for
        the result), or None. The kept state stands for no ruling that may end the match."""
        found = approved_forfeit(self.match, list(self.entries)) if self.entries else None
        if found is None:
            return None
        winner, entry = found
        return winner, explanation_text(entry.sanction.items, approval=True)[:FORFEIT_NOTE_MAX]

    @property
    def standing(self):
        """The winner side an appeal's decision kept ("NS"/"EW"), or None
        (``tournament.records.adjustments.standing_result``)."""
        return standing_result(self.match, list(self.entries)) if self.entries else None


def lock(queryset, match_id):
    """Lock the Match row ``match_id`` for the transaction, then read it from ``queryset`` with its kept state
    (:func:`tournament.records.snapshots.read`). Raises Match.DoesNotExist."""
    return snapshots.read(queryset, match_id)


def read(match, *, whole=False, kept_waiting=False) -> MatchRecord:
    """The records of ``match`` (locked by the caller): its kept state when that stands for them (and not
    ``whole``), else its current hands and every ruling, read once (only what a replay needs).

    A kept state stands for the records of a new hand while no live ruling waits for a hand or may end the
    match (``Kept.waiting``); ``kept_waiting``: it stands anyway (a new ruling adds to its ledger's counts
    and replays the whole match when it changes the replay)."""
    kept = None if whole else snapshots.kept(match)
    if kept is not None and (kept_waiting or not kept.waiting):
        return MatchRecord(match, kept=kept, replay=kept.replay)
    hands = current_hands(match)
    ledger, entries = ledger_and_entries(match)
    return MatchRecord(match, hands, tuple(entries), ledger)


def of(match, *, replay=None, entries=None, hands=None) -> MatchRecord:
    """A record from what a caller already read: ``entries`` (every ruling as an Entry; read when None) and
    ``replay`` (replayed from them when None), e.g. a chief's decision or the clock's time-up."""
    entries = match_entries(match) if entries is None else entries
    if replay is None:
        replay = load_replay(match, hands=hands, adjust=rulings_adjust.adjustments_for(match, entries))
    return MatchRecord(match, list(replay.hands), tuple(entries), replay=replay)

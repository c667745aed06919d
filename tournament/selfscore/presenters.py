"""A self-scoring table as the players' page, the desk and the API show it: the confirmed hands (what counts),
the entry waiting apart, and the entries' history; the open entries of an event for the desk and the floor
referees. Plain dicts (the API's serializers describe them)."""
from __future__ import annotations

from common.names import display_name
from scoring.models import Hand
from tournament.models import Match
from tournament.selfscore import modes, players, waiting


def _iso(value):
    return value.isoformat() if value is not None else None


def step_data(step) -> dict:
    return {"state": step.state, "side": step.side or None, "by": display_name(step.by) if step.by_id else None,
            "note": step.note, "hand": step.hand_id, "at": _iso(step.at)}


def entry_data(entry, steps=None) -> dict:
    """One entry with its state (read through :mod:`.waiting`, or set by the write that made it) and its
    steps (``steps``: as the write left them, else read)."""
    if not hasattr(entry, "state"):
        entry = waiting.entries_of(entry.match_id, limit=None, ids=[entry.pk])[0]
    steps = entry.steps.all() if steps is None else steps
    return {"id": entry.pk, "match": entry.match_id, "number": entry.number, "kind": entry.kind,
            "side": entry.side, "inputs": entry.inputs, "state": entry.state, "entered_at": _iso(entry.entered_at),
            "steps": [step_data(step) for step in steps]}


def hand_data(hand) -> dict:
    """A recorded (confirmed or decided) hand as the table shows it."""
    return {"id": hand.pk, "number": hand.number, "version": hand.version, "outcome": hand.outcome,
            "declarer_seat": hand.declarer_seat or None, "trump": hand.trump or None,
            "defender_points": hand.defender_points if hand.outcome == Hand.Outcome.PLAYED else None,
            "final_points": hand.final_points, "ns_level": hand.ns_level, "ew_level": hand.ew_level,
            "by_players": players.is_players(hand.recorded_by), "recorded_by": display_name(hand.recorded_by),
            "recorded_at": _iso(hand.recorded_at)}


def table_data(match) -> dict:
    """The table: who records, the confirmed hands and the levels they left (the match's stored result), the
    entry waiting (or disputed) apart, and the last entries. ``match`` read with ``round__stage__event``."""
    hands = list(Hand.objects.filter(match_id=match.pk, superseded_by__isnull=True)
                 .select_related("recorded_by").order_by("number"))
    entries = waiting.entries_of(match, limit=10)
    open_ = next((entry for entry in entries if entry.state in waiting.OPEN), None)
    return {
        "match": match.pk, "table": match.table, "round": match.round.number, "status": match.status,
        "recorders": modes.of_match(match), "levels": {"NS": match.ns_level or None, "EW": match.ew_level or None},
        "winner": match.winner_side, "over": match.is_over,
        "next_number": (hands[-1].number if hands else 0) + 1,
        "hands": [hand_data(hand) for hand in hands],
        "waiting": entry_data(open_) if open_ is not None else None,
        "entries": [entry_data(entry) for entry in entries],
    }


def open_entry_rows(entries) -> list:
    """The desk's and a floor referee's list: each open entry with its table, newest first."""
    return [{**entry_data(entry), "table": entry.match.table, "round": entry.match.round.number,
             "stage": entry.match.round.stage.label,
             "disputed_at": next((_iso(s.at) for s in entry.steps.all() if s.state == "disputed"), None)}
            for entry in entries]


def settled_data(settled) -> dict:
    """A confirmation's or a decision's answer: the entry (its steps as read under the lock, and the one that
    ended it), the hand recorded (None: rejected) and the match."""
    entry, written = settled.entry, settled.written
    entry.state = settled.step.state
    match = written.match if written is not None else Match.objects.get(pk=entry.match_id)
    steps = [*entry.steps.all(), settled.step]
    return {"entry": entry_data(entry, steps), "hand": hand_data(written.hand) if written is not None else None,
            "status": match.status, "levels": {"NS": match.ns_level or None, "EW": match.ew_level or None},
            "winner": match.winner_side}


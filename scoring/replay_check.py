"""Replay every match of an event from its hands and rulings and compare with what is stored.

    check_match(match) -> [Mismatch]     one match: its levels, status and winner, and its kept state
    check_event(event) -> (matches checked, [Mismatch])

The stored state is the Match row (levels, status, winner: :func:`tournament.competition.results.expected`
says what the records give) and the kept engine state (``tournament.records.snapshots``), which must be what a
full replay gives: the engine state, the hands as shown, the numbers decided by rulings, the penalty
ledger's counts and the versions. The hands' explanations compare by their items; a state kept before the
engine gave items (an older ``format``) compares by the explanation's text, as the legacy reader reads it
(``scoring.legacy_explanations.undecided_text``). ``manage.py verify_replay [SLUG]`` prints the mismatches.
"""
from __future__ import annotations

import json
from typing import NamedTuple

from scoring.legacy_explanations import undecided_text
from scoring.models import MatchSnapshot
from tournament.clocks import services as clock_services
from tournament.competition import results
from tournament.models import Match
from tournament.records import match as match_record
from tournament.records import snapshots


class Mismatch(NamedTuple):
    match: Match
    what: str
    stored: object
    replayed: object

    def __str__(self):
        return (f"match {self.match.pk} ({self.match}): {self.what}: stored {self.stored!r}, "
                f"replayed {self.replayed!r}")


def _side_of(match, winner_id):
    return {match.ns_id: "NS", match.ew_id: "EW"}.get(winner_id) if winner_id else None


def check_match(match) -> list[Mismatch]:
    """The differences between ``match`` as stored and as its hands and rulings replay (none: [])."""
    record = match_record.read(match, whole=True)
    record = record.replayed(record.replay_now())
    done, entries, ledger = record.replay, list(record.entries), record.ledger
    found = []
    verdict = results.expected(match, record=record)
    if verdict is not None:
        settled = bool(done.hands) or bool(match.ns_level or match.ew_level)
        if settled and (match.ns_level, match.ew_level) != (done.state.levels["NS"], done.state.levels["EW"]):
            found.append(Mismatch(match, "levels", (match.ns_level, match.ew_level),
                                  (done.state.levels["NS"], done.state.levels["EW"])))
        if verdict.over:
            wanted = (results.status_of(match, verdict), verdict.winner)
            if (match.status, _side_of(match, match.winner_id)) != wanted:
                found.append(Mismatch(match, "result", (match.status, _side_of(match, match.winner_id)), wanted))
        elif match.status in Match.DECIDED:
            found.append(Mismatch(match, "result", (match.status, _side_of(match, match.winner_id)), "not over"))
    found.extend(_check_kept(match, done, entries=entries, ledger=ledger))
    return found


def _check_kept(match, done, *, entries, ledger):
    row = MatchSnapshot.objects.filter(match_id=match.pk).first()
    if row is None:
        return []
    if row.profile_id != match.profile_id:   # a kept state of another profile version is never used
        return []
    wanted = json.loads(json.dumps(snapshots.stored_form(match, snapshots.of_replay(done, entries, ledger)),
                                   default=str))
    stored = {"profile_id": row.profile_id, "hand_id": row.hand_id, "ruling_id": row.ruling_id,
              "data": {**row.data, "tally": {**row.data["tally"],
                                            "offences": sorted(row.data["tally"]["offences"])}}}
    if row.data.get("format") != snapshots.FORMAT:   # kept before the items: its explanations are text
        wanted["data"], stored["data"] = _as_text(wanted["data"]), _as_text(stored["data"])
    found = []
    for key in ("hand_id", "ruling_id"):
        if stored[key] != wanted[key]:
            found.append(Mismatch(match, f"kept state: {key}", stored[key], wanted[key]))
    for key, value in wanted["data"].items():
        if stored["data"].get(key) != value:
            found.append(Mismatch(match, f"kept state: {key}", stored["data"].get(key), value))
    return found


def _as_text(data):
    """Kept data compared as a state kept before the explanation's items: no format, every hand's explanation
    as its text without the approval's words (a sanction quoted then was quoted as proposed)."""
    state = data["state"]
    hands = [{**{key: value for key, value in hand.items() if key != "items"},
              "explanation": [undecided_text(line) for line in hand["explanation"]]} for hand in state["hands"]]
    return {**{key: value for key, value in data.items() if key != "format"}, "state": {**state, "hands": hands}}


def check_event(event) -> tuple[int, list[Mismatch]]:
    """Check every match of ``event`` with two entries; returns (matches checked, mismatches)."""
    matches = clock_services.with_clock_state(
        Match.objects.filter(round__stage__event=event).select_related("profile", "ns", "ew", "round")
    ).order_by("round__stage__order", "round__number", "table", "pk")
    checked, found = 0, []
    for match in matches:
        checked += 1
        found.extend(check_match(match))
    return checked, found

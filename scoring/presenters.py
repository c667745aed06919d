"""The match as a table page and the API show it: levels, declarer, winner, every hand with its explanation."""
from common.seats import side_of
from tournament import access
from tournament.records.adjustments import match_replay


def state_payload(match, user, replayed=None, *, allowed=None):
    """The state answer for ``user``: levels, declarer, winner, every hand with its explanation.

    ``replayed``: the match's :class:`~tournament.records.hands.Replay` when the caller already has it (a write
    just computed it); ``allowed``: whether ``user`` may record here, when already checked.
    """
    replayed = replayed or match_replay(match)
    state = replayed.state
    allowed = access.may(user, access.RECORD, match=match) if allowed is None else allowed
    return {
        "match": match.pk, "status": match.status, "profile": str(match.profile),
        "ns": str(match.ns) if match.ns else None, "ew": str(match.ew) if match.ew else None,
        "levels": state.levels, "declarer": state.declarer, "winner": state.winner,
        "policy_pending": state.policy_pending,
        "next_number": replayed.next_number,
        "hands": [_hand_state(number, row, result) for number, row, result in hand_entries(replayed)],
        "actions": {"record": allowed and not match.is_over and state.winner is None,
                    "correct": allowed and bool(replayed.hands)},
    }


def hand_entries(replayed):
    """Each hand's result (as data: ``MatchState.hand_data``) with its hand number and its current row (None:
    decided by a ruling), in order: the state answer's ``hands``, and the table page's rows beside them."""
    deals = {hand.number for hand in replayed.hands if hand.outcome != "rebel"}
    return list(_numbered(replayed.entries, replayed.state.hand_data(), deals))


def _numbered(entries, results, played=()):
    """Pair each hand's result with its entry: (number, row or None) in the replay's order (a 造反 and the
    deal after it share the number).

    A forfeit result belongs to the hand before it (the hand at whose end, or during which, it was given),
    unless its number is a hand of its own that nobody played: a forfeit given before that hand began (a
    lateness forfeit at hand 2 after hand 1 was played is not listed under hand 1). ``played``: the
    numbers of the deals played (recorded)."""
    results = list(results)
    entries = list(entries)
    plays_left = sum(1 for result in results if result["kind"] != "forfeit")
    at, entry = 0, (0, None)
    for result in results:
        if result["kind"] != "forfeit":
            entry, at, plays_left = entries[at], at + 1, plays_left - 1
        elif at < len(entries) and entries[at][0] not in played and len(entries) - at > plays_left:
            entry, at = entries[at], at + 1   # its own number: no hand played or awarded there
        yield entry[0], entry[1], result


def _hand_state(number, row, result):
    side = side_of(result["declarer_seat"]) or "NS"
    declarer_level, defender_level = result["declarer_level"], result["defender_level"]
    ns, ew = (declarer_level, defender_level) if side == "NS" else (defender_level, declarer_level)
    return {
        "number": number, "kind": result["kind"], "declarer_seat": result["declarer_seat"],
        "trump": row.trump if row else None, "trump_label": row.get_trump_display() if row else None,
        "defender_points": row.defender_points if row else None, "final_points": result["defender_points"],
        "declarer_keeps": result["declarer_keeps"], "level_played": result["declarer_level_before"],
        "ns_level": ns, "ew_level": ew, "next_declarer": result["next_declarer"], "match_won": result["match_won"],
        "explanation": list(result["explanation"]), "items": list(result.get("items") or ()), "version": row.version if row else None,
        "recorded_by": row.recorder_name if row else None,
        "recorded_at": row.recorded_at if row else None,
    }

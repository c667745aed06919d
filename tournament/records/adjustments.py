"""What the rulings do to a match: per-hand adjustments for the replay, approved forfeits, the table state.

    hand_adjustments(match, entries=None, *, hands=None) -> {hand number: adjustment}
    adjustments_for(match, entries=None) -> (hands -> adjustments)     the scoring replay's hook
    match_replay(match, entries=None, hands=None) -> tournament.records.hands.Replay   hands and rulings, once
    match_state(match) -> MatchState                                 the state of that replay
    approved_forfeit(match, entries=None) -> (winner side or None, Entry) | None
    standing_result(match, entries=None) -> "NS" | "EW" | None       a result kept on appeal
    table_state(match, entries=None) -> TableState                   levels, declarer, hand in play
"""
from __future__ import annotations

from dataclasses import dataclass

from common.seats import NEXT_SEAT, SEAT_SIDE
from rulings.engine import defender_points_delta, quote
from scoring.engine import final_points
from scoring.profile_store import engine_profile
from tournament.records.hands import last_trick_from, load_replay
from tournament.records.ledger import IN_FORCE, REJECTED, final_decision, match_entries


@dataclass(frozen=True)
class TableState:
    """The table as the console shows it: levels, declarer seat and the hand now being played."""

    levels: dict
    declarer: str | None
    hand_number: int
    winner: str | None = None

    @property
    def declaring_side(self):
        return SEAT_SIDE.get(self.declarer) if self.declarer else None

    @property
    def level_played(self):
        side = self.declaring_side
        return self.levels.get(side) if side else None


    @classmethod
    def of(cls, state):
        """The table as the engine's MatchState leaves it."""
        return cls(levels=dict(state.levels), declarer=state.declarer, hand_number=state.hand_count + 1,
                   winner=state.winner)


def match_replay(match, entries=None, hands=None):
    """The scoring layer's Replay of the match (hands, adjustments, state), computed once.

    ``entries`` (from :func:`match_entries`) and ``hands`` (the current hands) when the caller has
    them already: nothing is read twice and the rulings are not replayed again.
    """
    return load_replay(match, hands=hands, adjust=adjustments_for(match, entries))


def match_state(match):
    """The match's engine state, replayed from its hands and rulings."""
    return match_replay(match).state


def table_state(match, entries=None):
    """Levels, declarer and the hand now in play, replayed by the scoring layer.

    ``entries`` (from :func:`match_entries`) saves replaying the rulings twice.
    """
    return TableState.of(match_replay(match, entries).state)

def needs_seat(award):
    """An award that moves the stage, drops a level or names a relative next declarer needs a seat."""
    return award is not None and bool(award["stage"] == "change" or award["drop_to"] or award["next_declarer"])

def _state_award(match, ruling, sanction, seats, penalty_points, approval=True):
    """Keyword arguments for ``MatchState.award`` (the engine's ``award_kwargs``), or None.

    ``seats`` maps hand numbers to the declarer seat of the recorded hands; for a hand not recorded
    yet, the seat the referee saw (``context``) is used as ``first_declarer`` (needed only before
    the first hand is played). Levels that depend on the hand's score (union-games bury) wait until
    the hand is recorded: till then there is no award and the hand stays open for recording.
    """
    context = ruling.context or {}
    points = None
    if sanction.effect.needs_points:
        points = _hand_points(match, ruling.hand_number, penalty_points)
        if points is None:
            return None
    kwargs = sanction.effect.award_kwargs(context.get("level_played"), reason=quote(sanction, approval),
                                          defender_points=points)
    seat = seats.get(ruling.hand_number) or context.get("declarer")
    if kwargs is None:
        return None
    if seat not in NEXT_SEAT:  # before the first hand: only a side's levels can move
        return None if needs_seat(kwargs) else kwargs
    return {**kwargs, "first_declarer": seat}


def _hand_points(match, number, penalty_points):
    """The defenders' final points of recorded hand ``number`` with ``penalty_points`` (None if unrecorded)."""
    hand = match.hands.filter(number=number, superseded_by__isnull=True).exclude(outcome="rebel").first()
    if hand is None:
        return None
    return final_points(engine_profile(match.profile), defender_points=hand.defender_points,
                        bottom_points=hand.bottom_points, penalty_points=penalty_points,
                        last_trick=last_trick_from(hand.last_trick, hand.trump))


def _signed_points(ruling, sanction, seats):
    """Points toward the defenders for one sanction; 0 while the offender's role is unknown."""
    role = ruling.offender_role or ruling.role
    if not role:
        declaring = SEAT_SIDE.get(seats.get(ruling.hand_number))
        if declaring is None:
            return 0
        role = "declarers" if declaring == ruling.side else "defenders"
    return defender_points_delta(sanction, role)


def _declarer_seats(match, hands=None):
    """{hand number: declarer seat} from the current recorded deals (``hands`` when already read); a 造反 is
    none: the deal after it, sharing its number, has the new bidding's declarer."""
    if hands is not None:
        return {hand.number: hand.declarer_seat for hand in hands
                if hand.declarer_seat and getattr(hand, "outcome", "") != "rebel"}
    try:
        hands = (match.hands.filter(superseded_by__isnull=True).exclude(outcome="rebel")
                 .values_list("number", "declarer_seat"))
    except AttributeError:
        return {}
    return {number: seat for number, seat in hands if seat}


def hand_adjustments(match, entries=None, *, hands=None):
    """What the live rulings do to each hand, for ``scoring.services.match_state``.

    Returns {hand_number: {"penalty_points": signed int toward the defenders,
    "award": kwargs for MatchState.award or None, "forfeit": kwargs for MatchState.forfeit_match
    or None, "points_against": {"NS": n, "EW": n}}}. Void and reversed rulings are left out, and
    so is a ruling still waiting for the other side's choice; a match forfeit or disqualification
    counts only once the chief referee has approved it (when both sides forfeit, the match has no
    winner and :func:`apply_match_result` records it). ``hands``: the current hands, when already read.
    """
    seats = _declarer_seats(match, hands)
    entries = match_entries(match) if entries is None else entries
    forfeit = approved_forfeit(match, entries)
    result = {}
    live = [entry for entry in entries if entry.state in (IN_FORCE, REJECTED) and entry.sanction is not None]
    for entry in live:  # the hand's points first: a score-dependent award needs their total
        ruling, sanction = entry.ruling, entry.sanction
        slot = result.setdefault(ruling.hand_number, {"penalty_points": 0, "award": None, "forfeit": None,
                                                      "points_against": {"NS": 0, "EW": 0}})
        slot["penalty_points"] += _signed_points(ruling, sanction, seats)
        slot["points_against"][sanction.side] += sanction.points
    for entry in live:
        ruling, sanction = entry.ruling, entry.sanction
        slot = result[ruling.hand_number]
        if slot["award"] is None:
            slot["award"] = _state_award(match, ruling, sanction, seats, slot["penalty_points"],
                                         approval=entry.state == IN_FORCE)
        if forfeit is not None and forfeit[1] is entry and forfeit[0] is not None:
            slot["forfeit"] = {"winner": forfeit[0], "reason": quote(sanction, approval=True)}
    return result


def approved_forfeit(match, entries=None):
    """The approved match forfeit in force, as (winner side or None when both sides forfeit, Entry).

    None when no approved forfeit or disqualification is in force.
    """
    losers, first = set(), None
    for entry in match_entries(match) if entries is None else entries:
        if entry.state == IN_FORCE and entry.sanction.kinds & {"match_forfeit", "disqualification"}:
            losers.add(entry.sanction.side)
            first = first or entry
    if first is None:
        return None
    winner = None if len(losers) == 2 else first.sanction.beneficiary
    return winner, first


def standing_result(match, entries=None):
    """The winner side an appeal's deciding body kept ("NS"/"EW") when its decision would have changed the
    result after the winner's next match had begun or the round had closed (``AppealDecision.result_stands``),
    from the appeals' standing decisions, the latest first; None when no decision keeps one."""
    kept = []
    for entry in match_entries(match) if entries is None else entries:
        for appeal in entry.ruling.appeals.all():
            decision = final_decision(appeal)
            if decision is not None and decision.result_stands:
                kept.append((decision.decided_at, decision.pk, decision.result_stands))
    return max(kept)[2] if kept else None


def adjustments_for(match, entries=None):
    """The scoring layer's hook: ``hands -> hand_adjustments(...)`` with the rulings replayed once.

    ``entries`` (from :func:`match_entries`) when the caller has them; ``hands`` (the current hands)
    may be None, then they are read.
    """
    entries = match_entries(match) if entries is None else entries
    return lambda hands=None: hand_adjustments(match, entries, hands=hands)

"""Hands as recorded, and the match replayed from them with the engine.

    current_hands(match) -> [Hand]          the latest version of every hand, by number
    hand_history(match) -> [Hand]           every version, superseded ones included
    replay(match, hands, adjustments, *, extra=None) -> MatchState
    load_replay(match, *, adjust, hands=None) -> Replay   hands + adjustments + state, once
    next_hand_number(hands, adjustments) -> int
    entry_numbers(hands, ruled) -> [(number, Hand | None)]   the replay's entries in order, with their numbers

The rulings' adjustments of each hand come from the rulings layer (``tournament.records.ledger``), which calls this
module; ``tournament.records.ledger.match_replay(match)`` is the replay with them. An adjustment is::

    {"penalty_points": int,        # signed, toward the defenders' total of that hand (default 0)
     "award": dict | None,         # kwargs for MatchState.award(...): the hand's outcome was decided
                                   # by a sanction; replaces the normal play (a recorded Hand row for
                                   # that number is then kept for the record but not played)
     "forfeit": dict | None}       # kwargs for MatchState.forfeit_match(...), applied after the hand

Award and forfeit numbers count as hands: the next hand number is one more than the highest number
played or decided by a ruling. A 造反 (004 二.7, outcome "rebel") is no hand: its entry takes the number of the
deal it precedes (the deal played after it shares the number) and comes first among that number's entries;
the abandoned deal scores nothing and counts toward nothing. A 造反 stored before that rule held a number
of its own (the deal after it the next one): it is replayed as then, counted, so such a record replays the
same (:func:`_holds_own_number`). A stored hand after the state has a winner (a ruling changed an earlier hand
since, e.g. amended on appeal after the match) is not played: the match was over before it.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Case, IntegerField, Value, When

from common.errors import UserError, gettext_noop
from common.seats import SEAT_SIDE
from scoring.engine import LastTrick, MatchState
from scoring.models import Hand
from scoring.profile_store import engine_profile

LAST_TRICK_KEYS = ("by", "shape", "pairs", "trump", "rank", "main_rank", "buried_by", "cards")


#: Within a hand number, a 造反 comes before the deal it precedes (then by when it was stored).
REBEL_FIRST = Case(When(outcome=Hand.Outcome.REBEL, then=Value(0)), default=Value(1),
                   output_field=IntegerField())


def is_rebellion(hand) -> bool:
    """Is this entry (a Hand, a kept hand or a dict of inputs) a 造反, which holds no hand number?"""
    outcome = hand.get("outcome") if isinstance(hand, dict) else getattr(hand, "outcome", None)
    return outcome == Hand.Outcome.REBEL


def current_hands(match) -> list:
    """The current (not superseded) version of every hand of the match, in hand order (a 造反 before the
    deal that shares its number)."""
    return list(
        Hand.objects.filter(match=match, superseded_by__isnull=True)
        .select_related("recorded_by").order_by("number", REBEL_FIRST, "pk")
    )


def hand_history(match) -> list:
    """Every version of every hand, oldest first per number (a 造反's versions before the deal's), with
    ``superseded_by`` loaded (who/when)."""
    return list(
        Hand.objects.filter(match=match)
        .select_related("recorded_by", "superseded_by", "superseded_by__recorded_by")
        .order_by("number", REBEL_FIRST, "version", "pk")
    )


def last_trick_from(data, trump):
    """Build the engine's LastTrick from the stored JSON (None when not entered); no-trump makes every J main."""
    if not data:
        return None
    unknown = set(data) - set(LAST_TRICK_KEYS)
    if unknown:
        raise UserError(gettext_noop("Unknown items in the last trick: %(keys)s."), field="last_trick",
                        keys=", ".join(sorted(unknown)))
    kwargs = {key: data[key] for key in LAST_TRICK_KEYS if data.get(key) is not None}
    if "by" not in kwargs or "shape" not in kwargs:
        raise UserError(gettext_noop("The last trick needs who took it (by) and its shape."), field="last_trick")
    return LastTrick(**kwargs, no_trump=trump == Hand.Trump.NO_TRUMP)


def _play(state, hand_inputs, adjustment, *, counted=False):
    """Apply one hand (a Hand row or a dict of its inputs) to ``state``, honouring a ruling's adjustment.
    ``counted``: a 造反 stored when it held a number of its own (:func:`_holds_own_number`)."""
    fresh = isinstance(hand_inputs, dict)   # inputs not stored yet: a given declarer is checked
    # a stored row has every input: no default for it, so an object that is not a Hand fails loudly
    # instead of playing a hand without its bottom, last trick or outcome
    get = hand_inputs.get if fresh else lambda key, default=None: getattr(hand_inputs, key)
    award = adjustment.get("award")
    if award:
        state = state.award(**award)
    elif hand_inputs is not None and get("outcome") == Hand.Outcome.REDEAL:
        state = state.redeal()
    elif hand_inputs is not None and get("outcome") == Hand.Outcome.REBEL:   # 004 二.7 造反
        state = state.rebel(caller_side=SEAT_SIDE.get(get("called_by")), winner_seat=get("bid_winner"),
                            counted=counted)
    elif hand_inputs is not None:
        state = state.play(
            defender_points=get("defender_points"),
            declarer=get("declarer_seat") if fresh or state.declarer is None else None,
            bottom_points=get("bottom_points", 0),
            last_trick=last_trick_from(get("last_trick"), get("trump")),
            penalty_points=adjustment.get("penalty_points", 0),
            reclaim=bool(get("reclaim", False)),
        )
    if adjustment.get("forfeit"):
        state = state.forfeit_match(**adjustment["forfeit"])
    return state


def apply_hand(state, inputs, adjustment=None):
    """``state`` after one more hand: ``inputs`` a dict of a hand's inputs not stored yet (the declarer
    given is checked) or a stored Hand, with a ruling's ``adjustment`` ({} or None for none)."""
    return _play(state, inputs, adjustment or {})


def ruled_numbers(adjustments) -> set:
    """Hand numbers a ruling decided without play (an award or a forfeit): they count as hands."""
    return {n for n, adj in adjustments.items() if adj.get("award") or adj.get("forfeit")}


def _by_number(hands, extra=None):
    """{number: ([its 造反 entries, in order], the deal's row or inputs or None)}; ``extra`` ({number: inputs}
    not stored yet) is added last (a 造反 after those stored, a deal in the place of none)."""
    groups = {}
    for number, row in [*((hand.number, hand) for hand in hands), *(extra or {}).items()]:
        rebels, deal = groups.get(number, ((), None))
        groups[number] = ((*rebels, row), deal) if is_rebellion(row) else (rebels, row)
    return groups


def _holds_own_number(number, deal, ruled, last) -> bool:
    """A 造反 stored before it shared the number of the deal after it: nothing else at its number (``deal``
    None, not ``ruled``) and an entry after it (``last``: the highest number). Replayed as it was then
    (counted), so its record replays the same."""
    return deal is None and number not in ruled and number < last


def replay(match, hands, adjustments, *, extra=None):
    """The engine state after ``hands`` (+ ``extra``: {number: inputs} not stored yet) and the awards."""
    groups = _by_number(hands, extra)
    ruled = ruled_numbers(adjustments)
    state = MatchState.new(engine_profile(match.profile))
    numbers = sorted(set(groups) | ruled)
    for number in numbers:
        rebels, deal = groups.get(number, ((), None))
        own = bool(rebels) and _holds_own_number(number, deal, ruled, numbers[-1])
        for row in rebels:
            if state.winner is None or isinstance(row, dict):
                state = _play(state, row, {}, counted=own)
        if deal is None and number not in ruled:
            continue   # a 造反 and no deal yet: a ruling's points wait for the deal
        if state.winner is not None and deal is not None and not isinstance(deal, dict):
            # played after the match was decided: a ruling amended or recorded since (an appeal after the
            # match) ended it earlier, so this hand no longer counts (past A wins). New inputs are refused.
            continue
        state = _play(state, deal, adjustments.get(number, {}))
    return state


def entry_numbers(hands, ruled) -> list:
    """The replay's entries but forfeits, in order, as (number, row or None): each 造反, then the number's
    deal (its row, or None when only a ruling decided it). ``ruled``: the numbers decided by a ruling."""
    groups, ruled = _by_number(hands), set(ruled)
    out = []
    for number in sorted(set(groups) | ruled):
        rebels, deal = groups.get(number, ((), None))
        out.extend((number, row) for row in rebels)
        if deal is not None or number in ruled:
            out.append((number, deal))
    return out


def _deal_numbers(hands, ruled) -> set:
    """The numbers of the deals played (a 造反 is none) or decided by a ruling."""
    return {hand.number for hand in hands if not is_rebellion(hand)} | set(ruled)


@dataclass(frozen=True)
class Replay:
    """A match replayed once: its current hands, the rulings' adjustments and the engine state from both.

    Computed once per request and passed along (to the write, the derived fields and the API answer)
    so nothing replays the match twice.
    """

    hands: list
    adjustments: dict
    state: MatchState
    ruled: tuple | None = None   # the numbers decided by a ruling, when the adjustments are not at hand
                                 # (a state kept between requests: ``tournament.records.snapshots``)

    @property
    def ruled_numbers(self) -> set:
        """The hand numbers decided by a ruling."""
        return set(self.ruled) if self.ruled is not None else ruled_numbers(self.adjustments)

    @property
    def numbers(self) -> list:
        """Every hand number played or decided by a ruling, in order (a 造反 plays no hand)."""
        return sorted(_deal_numbers(self.hands, self.ruled_numbers))

    @property
    def entries(self) -> list:
        """Every entry but a forfeit as (number, row or None), in the replay's order (:func:`entry_numbers`)."""
        return entry_numbers(self.hands, self.ruled_numbers)

    @property
    def next_number(self) -> int:
        """One more than the highest hand number played or decided by a ruling: after a 造反, the number
        it took (the deal it precedes)."""
        return max(self.numbers, default=0) + 1


def load_replay(match, *, adjust, hands=None) -> Replay:
    """Read the current hands (unless given) and replay them with the rulings' adjustments.

    ``adjust``: a function ``hands -> adjustments`` (the rulings layer's ``adjustments_for(match)``), or a
    dict of adjustments (``{}`` for none). The rulings-aware replay is ``tournament.records.ledger.match_replay``.
    """
    hands = current_hands(match) if hands is None else hands
    adjustments = adjust(hands) if callable(adjust) else adjust
    return Replay(hands, adjustments, replay(match, hands, adjustments))


def next_hand_number(hands, adjustments) -> int:
    """One more than the highest hand number played (``hands``; a 造反 plays none) or decided by a ruling
    (``adjustments``)."""
    return max(_deal_numbers(hands, ruled_numbers(adjustments)), default=0) + 1

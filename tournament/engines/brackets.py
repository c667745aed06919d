"""Pure single-elimination bracket model (no Django imports).

Build once from the first-round slots (``pairings.elimination_slots`` or
``pairings.cross_seed``), persist the match slots, and resolve the bracket
again whenever a result is recorded or corrected::

    bracket = build_bracket(first_round, places_played=THIRD_PLACE_MATCH)
    state = bracket.resolve({"R1-M1": "A", ...}, withdrawn=["F"])
    state.matches["R2-M1"].a, state.placements

Match keys are stable strings:

- main bracket: ``R{round}-M{n}`` (round 1 = first round, n = 1-based in
  bracket order), e.g. ``R1-M3``; the last round is the final;
- placement matches: ``P{best place}-R{round}-M{n}``, e.g. ``P3-R1-M1`` is
  the match for 3rd/4th; ``P5-R1-M1``/``P5-R1-M2`` are the 5th–8th
  semi-finals, ``P5-R2-M1`` is for 5th/6th and ``P7-R1-M1`` for 7th/8th.

``places_played`` says how many top places are played for; every other
entry shares a place with the other losers of its round (standard
competition numbering: losers of a round of m matches share place m+1):

- ``JOINT_THIRD`` (2): only the final; the semi-final losers share 3rd and
  the quarter-final losers share 5th (union-games: two third places, four
  merit awards);
- ``THIRD_PLACE_MATCH`` (4): semi-final losers play for 3rd/4th;
- ``PLACE_QUARTER_FINALISTS`` (8): also the quarter-final losers play for
  5th–8th (shenzhen-community: all eight quarter-finalists get a place);
- any larger power of two plays for more places in the same way.

Byes advance by themselves; an entry listed as withdrawn loses each match it
has not played by walkover (it still takes the loser's place); if both
entries of a match are withdrawn, nobody advances and neither gets a place.
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from common.errors import UserError, gettext_noop
from common.numbers import whole

__all__ = [
    "JOINT_THIRD",
    "THIRD_PLACE_MATCH",
    "PLACE_QUARTER_FINALISTS",
    "Source",
    "MatchSlot",
    "MatchState",
    "Placement",
    "Bracket",
    "BracketState",
    "build_bracket",
]

JOINT_THIRD = 2
THIRD_PLACE_MATCH = 4
PLACE_QUARTER_FINALISTS = 8

# Match statuses after resolving.
WAITING = "waiting"      # a side is not known yet
READY = "ready"          # both entries known, no result yet
PLAYED = "played"        # result recorded
BYE = "bye"              # one side is nobody: the other advances
WALKOVER = "walkover"    # one entry withdrawn: the other advances
VOID = "void"            # nobody on either side, or both withdrawn


class _Nobody:
    """Marker for a side that is definitely empty (a bye, or the loser of a bye)."""

    def __repr__(self) -> str:
        return "NOBODY"


class _Pending:
    """Marker for a side that is not known yet."""

    def __repr__(self) -> str:
        return "PENDING"


NOBODY = _Nobody()
PENDING = _Pending()


@dataclass(frozen=True)
class Source:
    """Where one side of a match comes from.

    ``kind`` is ``"entry"`` (``value`` is the entry), ``"bye"`` (no one),
    ``"winner"`` or ``"loser"`` (``value`` is an earlier match's key).
    """

    kind: str
    value: Any = None

    def describe(self) -> str:
        """Chinese text for a bracket sheet, e.g. "R1-M1 胜者"."""
        return {
            "entry": lambda: str(self.value),
            "bye": lambda: "轮空",
            "winner": lambda: f"{self.value} 胜者",
            "loser": lambda: f"{self.value} 负者",
        }[self.kind]()


@dataclass(frozen=True)
class MatchSlot:
    """One match of the bracket as persisted: key, sides and what it decides.

    ``round_no`` is the playing round (placement matches are played alongside
    the main round of the same number). ``winner_place``/``loser_place`` are
    the places the match hands out (None when the winner plays on or the
    loser goes on to a placement match); ``loser_shared`` is True when the
    loser's place is shared with the other losers of the round.
    """

    key: str
    round_no: int
    label: str
    a: Source
    b: Source
    winner_place: int | None = None
    loser_place: int | None = None
    loser_shared: bool = False


@dataclass(frozen=True)
class MatchState:
    """A match after resolving results: who plays, status, winner and loser.

    ``a``/``b`` are entries or None (not known yet, or nobody — ``status``
    tells which); ``winner``/``loser`` are None until decided or when nobody.
    """

    key: str
    a: Any
    b: Any
    status: str
    winner: Any = None
    loser: Any = None


@dataclass(frozen=True)
class Placement:
    """A final place: ``shared`` when other entries hold the same place."""

    place: int
    entry: Any
    shared: bool


@dataclass(frozen=True)
class BracketState:
    """The bracket resolved against a set of results.

    ``matches``: key -> MatchState, in bracket order. ``placements``: places
    decided so far, best first (entries with the same place in entry order
    of the bracket). ``stale``: keys of recorded results ignored because the
    recorded winner is not (or no longer) in that match (non-strict mode).
    """

    matches: Mapping[str, MatchState]
    placements: tuple[Placement, ...]
    stale: tuple[str, ...] = ()

    @property
    def is_complete(self) -> bool:
        """True when no match is waiting or ready."""
        return all(m.status not in (WAITING, READY) for m in self.matches.values())

    def place_of(self, entry: Hashable) -> Placement | None:
        """The entry's placement, or None while it is not decided."""
        return next((p for p in self.placements if p.entry == entry), None)


@dataclass(frozen=True)
class Bracket:
    """A single-elimination bracket: an ordered tuple of match slots.

    Feeding matches always come before the matches they feed.
    """

    matches: tuple[MatchSlot, ...]
    places_played: int
    _index: Mapping[str, MatchSlot] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {m.key: m for m in self.matches})

    def match(self, key: str) -> MatchSlot:
        """The slot with this key (KeyError if unknown)."""
        return self._index[key]

    @property
    def final_key(self) -> str:
        """Key of the final."""
        return next(m.key for m in self.matches if m.winner_place == 1)

    def resolve(
        self,
        results: Mapping[str, Any] | None = None,
        *,
        withdrawn: Iterable[Hashable] = (),
        strict: bool = True,
    ) -> BracketState:
        """Work out every match's sides, winners and the places from ``results``.

        ``results`` maps a match key to its winner. With ``strict`` a result
        for an unknown key, for a match whose sides are not both known, or
        naming an entry not in the match raises UserError; otherwise such
        results are ignored and listed in ``BracketState.stale`` (useful after
        correcting an earlier result).
        """
        results = dict(results or {})
        out_of_event = {e: True for e in withdrawn}
        unknown = [k for k in results if k not in self._index]
        if unknown and strict:
            raise UserError(gettext_noop("There is no match %(key)s in this bracket."), field="results", key=unknown[0])
        states: dict[str, MatchState] = {}
        stale = list(unknown)
        for slot in self.matches:
            a = _side(slot.a, states)
            b = _side(slot.b, states)
            state, bad = _decide(slot.key, a, b, results, out_of_event)
            if bad:
                if strict:
                    raise bad
                stale.append(slot.key)
            states[slot.key] = state
        return BracketState(states, self._placements(states), tuple(stale))

    def _placements(self, states: Mapping[str, MatchState]) -> tuple[Placement, ...]:
        """Collect the places handed out by decided matches, best first."""
        found = []
        for order, slot in enumerate(self.matches):
            state = states[slot.key]
            if state.status in (WAITING, READY):
                continue
            if slot.winner_place is not None and state.winner is not None:
                found.append((slot.winner_place, order, state.winner, False))
            if slot.loser_place is not None and state.loser is not None:
                found.append((slot.loser_place, order, state.loser, slot.loser_shared))
        found.sort(key=lambda t: (t[0], t[1]))
        return tuple(Placement(place, entry, shared) for place, _, entry, shared in found)


def _side(source: Source, states: Mapping[str, MatchState]) -> Any:
    """The entry on one side: an entry, NOBODY or PENDING."""
    if source.kind == "entry":
        return source.value
    if source.kind == "bye":
        return NOBODY
    state = states[source.value]
    if state.status in (WAITING, READY):
        return PENDING
    person = state.winner if source.kind == "winner" else state.loser
    return NOBODY if person is None else person


def _decide(key, a, b, results, out_of_event) -> tuple[MatchState, str | None]:
    """Status, winner and loser of one match; plus the error for a bad result."""
    shown_a = None if a is PENDING or a is NOBODY else a
    shown_b = None if b is PENDING or b is NOBODY else b
    recorded = key in results
    if a is PENDING or b is PENDING:
        bad = UserError(gettext_noop("The sides of match %(key)s are not known yet: its result cannot be recorded."),
                        field="results", key=key) if recorded else None
        return MatchState(key, shown_a, shown_b, WAITING), bad
    if a is NOBODY or b is NOBODY:
        winner = shown_a if shown_b is None else shown_b
        status = BYE if winner is not None else VOID
        bad = None
        if recorded and results[key] != winner:
            bad = UserError(gettext_noop("Match %(key)s is a bye: no other winner can be recorded."),
                            field="results", key=key)
        return MatchState(key, shown_a, shown_b, status, winner, None), bad
    if recorded:
        winner = results[key]
        if winner == a or winner == b:
            return MatchState(key, a, b, PLAYED, winner, b if winner == a else a), None
        bad = UserError(gettext_noop("The winner %(winner)r recorded for %(key)s does not play in that match."),
                        field="results", winner=winner, key=key)
    else:
        bad = None
    gone_a, gone_b = a in out_of_event, b in out_of_event
    if gone_a and gone_b:
        return MatchState(key, a, b, VOID), bad
    if gone_a or gone_b:
        winner, loser = (b, a) if gone_a else (a, b)
        return MatchState(key, a, b, WALKOVER, winner, loser), bad
    return MatchState(key, a, b, READY), bad


# --------------------------------------------------------------------------- building
def build_bracket(first_round: Sequence[tuple[Any, Any]], *, places_played: int = JOINT_THIRD) -> Bracket:
    """Build all match slots from the first-round ``(a, b)`` pairs (None = bye).

    ``first_round`` must have a power-of-two number of matches, as returned by
    ``pairings.elimination_slots``. ``places_played`` (a power of two, at
    least 2) is how many top places are decided by play; see the module doc.
    """
    sources = _first_round_sources(first_round)
    if isinstance(places_played, bool) or not isinstance(places_played, int) or places_played < 2 \
            or places_played & (places_played - 1):
        raise UserError(gettext_noop("The number of places played must be a power of two (2, 4, 8…), not %(value)r."),
                        field="places_played", value=places_played)
    slots: list[MatchSlot] = []
    _build_section(sources, first_place=1, prefix="", round_offset=0,
                   places_played=places_played, out=slots)
    slots.sort(key=lambda s: (s.round_no, _section_rank(s.key)))
    return Bracket(tuple(slots), places_played)


def _section_rank(key: str) -> tuple[int, int, int]:
    """Sort key inside a round: main bracket first, then placement sections by place."""
    if key.startswith("P"):
        place, rnd, num = key[1:].split("-")
        return (int(place), int(rnd[1:]), int(num[1:]))
    rnd, num = key.split("-")
    return (0, int(rnd[1:]), int(num[1:]))


def _first_round_sources(first_round: Sequence[tuple[Any, Any]]) -> list[Source]:
    """Check the first-round pairs and turn them into a flat list of sources."""
    pairs = list(first_round)
    if not pairs or len(pairs) & (len(pairs) - 1):
        raise UserError(gettext_noop("The first round must have 1, 2, 4, 8… matches, not %(count)s."),
                        field="first_round", count=len(pairs))
    seen: dict = {}
    sources = []
    for i, pair in enumerate(pairs):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise UserError(gettext_noop("Match number %(number)s must be a pair of entries (a, b)."),
                            field="first_round", number=i + 1)
        if pair[0] is None and pair[1] is None:
            raise UserError(gettext_noop("Match number %(number)s of the first round is a bye against a bye."),
                            field="first_round", number=i + 1)
        for entry in pair:
            if entry is None:
                sources.append(Source("bye"))
                continue
            if entry in seen:
                raise UserError(gettext_noop("The entry %(entry)r appears twice."), field="first_round", entry=entry)
            seen[entry] = True
            sources.append(Source("entry", entry))
    return sources


def _build_section(sources, *, first_place, prefix, round_offset, places_played, out) -> None:
    """Build a knock-out section deciding places ``first_place``.. among ``sources``.

    Losers of a round with m matches are due places first_place+m ..
    first_place+2m-1: if all of these are within ``places_played`` they play
    a placement section for them, otherwise they share first_place+m.
    """
    current = sources
    rnd = 1
    while len(current) > 1:
        m = len(current) // 2
        loser_first = first_place + m
        play_off = m > 1 and loser_first + m - 1 <= places_played
        keys = []
        for i in range(m):
            key = f"{prefix}R{rnd}-M{i + 1}"
            keys.append(key)
            out.append(MatchSlot(
                key=key,
                round_no=round_offset + rnd,
                label=_label(first_place, m, len(sources), rnd),
                a=current[2 * i],
                b=current[2 * i + 1],
                winner_place=first_place if m == 1 else None,
                loser_place=None if play_off else loser_first,
                loser_shared=m > 1 and not play_off,
            ))
        if play_off:
            _build_section([Source("loser", k) for k in keys], first_place=loser_first,
                           prefix=f"P{loser_first}-", round_offset=round_offset + rnd,
                           places_played=places_played, out=out)
        current = [Source("winner", k) for k in keys]
        rnd += 1



def parse_key(key: str) -> tuple[str, int, int]:
    """"P5-R2-M1" → ("P5-", 2, 0); "R1-M3" → ("", 1, 2): the section's prefix, the round and the match's 0-based
    index (UserError naming the key otherwise)."""
    head, _sep, tail = key.rpartition("R")
    round_text, _sep2, match_text = tail.partition("-M")
    section = head == "" or (head.startswith("P") and head.endswith("-") and whole(head[1:-1]) is not None)
    if not section or not whole(round_text) or not whole(match_text):
        raise UserError(gettext_noop("Unknown bracket position %(key)r."), field="bracket_key", key=key)
    return head, int(round_text), int(match_text) - 1


_ROUND_NAMES = {1: "决赛", 2: "半决赛", 4: "四分之一决赛", 8: "八分之一决赛"}


def _label(first_place: int, matches_in_round: int, section_size: int, rnd: int) -> str:
    """Chinese label, e.g. "半决赛", "三四名决赛", "5–8名 第1轮"."""
    if first_place == 1:
        return _ROUND_NAMES.get(matches_in_round, f"第{rnd}轮")
    last_place = first_place + section_size - 1
    if matches_in_round == 1 and section_size == 2:
        return f"第{first_place}–{last_place}名决赛"
    if matches_in_round == 1:
        return f"第{first_place}–{first_place + 1}名决赛"
    return f"第{first_place}–{last_place}名排位赛 第{rnd}轮"

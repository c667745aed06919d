"""The hand-by-hand level engine: pure Python, no Django.

Contract (called by an outside test suite, see issue 3 §2):
    settle_hand(profile, *, declarer_level, defender_level, defender_points, bottom_points=0,
                last_trick=None, declarer_seat=None, penalty_points=0) -> HandResult
    LastTrick(by, shape, pairs=1, trump=True, rank=None, *, main_rank=None, no_trump=False,
              buried_by="declarers")
    bottom_multiplier(profile, shape, pairs=1, trump=True, *, cards=None) -> int
    MatchState.new(profile); state.play(*, defender_points, declarer=None, bottom_points=0,
              last_trick=None, penalty_points=0, reclaim=False) -> MatchState
    state.levels, state.declarer, state.winner, state.hands, state.winner_at_time()
Extensions for the sanction engine and the Django layer:
    state.award(*, stage, gainer=None, levels=0, next_declarer=None, drop_to=None, reason="",
                first_declarer=None)
    state.redeal(*, reason="")   (no trump declared by the end of the deal: 000 第五条)
    state.rebel(*, caller_side, winner_seat, reason="")   (造反: the deal redone, the stage bid for: 004 二.7)
    final_points(profile, *, defender_points, bottom_points=0, last_trick=None, penalty_points=0)
    state.forfeit_match(*, winner, reason=""); state.policy_pending

Encodings:
  * Seats go counter-clockwise N → W → S → E → N; a seat's 下家 is the next one (W for N).
  * "defenders" always means the side off stage (台下方; 防家 in 000/002, 抓分方 in 003,
    进攻方 in 004), "declarers" the side on stage.
  * J/A bottom capture: ``LastTrick(rank="J", trump=True)`` is a capture with the trump-suit J
    (主J) and ``trump=False`` one with a J of another suit (副J). To say "a trump play, but a 副J"
    (a 副J is a trump card while J is the level), pass ``main_rank=False`` explicitly;
    ``no_trump=True`` makes every J count as 主J.
  * ``buried_by="defenders"``: the side off stage overturned trump and re-buried the bottom (004);
    then a last trick won by the declarers subtracts the multiplied bottom from the defender points.
  * 落实政策 (shenzhen): after a J/A-capture restart the state's ``policy_pending`` names the level
    the declaring side may return to; the next hand's HandResult has ``policy_available`` when the
    defenders scored under the profile's limit, and ``play(..., reclaim=True)`` takes the option
    (a correction of that hand can add it afterwards).
  * Inputs: trick points 0..the decks' points (200) and the bottom 0..what its cards can hold
    (profile ``cards``: 2 decks, 8 cards → 80), multiples of 5. Penalties and a multiplied bottom
    are what may take the final points outside 0..200. Refused input raises
    :class:`common.errors.UserError` naming the field.
"""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass

from common.errors import UserError, gettext_noop
from common.seats import NEXT_SEAT as _NEXT
from common.seats import PARTNER as _PARTNER
from common.seats import SEAT_SIDE, SEATS, SIDES

from .profiles import POINTS_MAX, POINTS_MIN, Profile

__all__ = ["SEATS", "SIDES", "LastTrick", "HandResult", "MatchState", "bottom_multiplier", "settle_hand",
           "final_points"]

_SIDE_INDEX = {side: i for i, side in enumerate(SIDES)}
_SIDE_OF = {seat: _SIDE_INDEX[side] for seat, side in SEAT_SIDE.items()}
_SHAPES = ("single", "pair", "tractor", "throw")
_BY = ("defenders", "declarers")
_RANKS = frozenset(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "JOKER"))
_ROTATION_NAMES = {"partner": "对家", "next": "下家", "same": "原庄家"}


# --------------------------------------------------------------------------------------------
# Input values
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class LastTrick:
    """The winning play of the last trick (for 抠底 and the J/A bottom-capture rules)."""
    by: str
    shape: str
    pairs: int = 1
    trump: bool = True
    rank: str | None = None
    _: KW_ONLY
    main_rank: bool | None = None
    no_trump: bool = False
    buried_by: str = "declarers"
    #: a throw (甩牌, shape "throw") only: how many cards it holds. Its ``pairs`` are then the pairs of its
    #: largest combination (0: a single) where the profile counts the largest combination (``bottom.throw``
    #: null), or every pair in it where the profile counts all its cards.
    cards: int | None = None

    def __post_init__(self):
        if self.by not in _BY:
            raise UserError(gettext_noop("Enter defenders or declarers, not %(value)r."),
                            field="last_trick.by", value=self.by)
        _check_shape(self.shape, self.pairs, "last_trick", self.cards)
        if self.rank is not None and self.rank not in _RANKS:
            raise UserError(gettext_noop("Unknown rank %(value)r."), field="last_trick.rank", value=self.rank)
        if self.buried_by not in _BY:
            raise UserError(gettext_noop("Enter defenders or declarers, not %(value)r."),
                            field="last_trick.buried_by", value=self.buried_by)

    @property
    def is_main_rank(self) -> bool:
        """True when the capturing level card is the trump suit's one (主J/主A)."""
        if self.no_trump:
            return True
        return self.trump if self.main_rank is None else self.main_rank


#: The most pairs one play can hold (four decks dealt to four players: 54 cards, 27 pairs each).
MAX_TRICK_PAIRS = 27


def _check_shape(shape, pairs, prefix, cards=None):
    if shape not in _SHAPES:
        raise UserError(gettext_noop("Unknown shape %(value)r: enter single, pair, tractor or throw."),
                        field=f"{prefix}.shape", value=shape)
    if shape == "throw":
        _check_throw(pairs, prefix, cards)
        return
    if cards is not None:
        raise UserError(gettext_noop("The number of cards is entered for a throw only."),
                        field=f"{prefix}.cards", value=cards)
    if not isinstance(pairs, int) or isinstance(pairs, bool) or pairs < 1:
        raise UserError(gettext_noop("The number of pairs must be a positive whole number, not %(value)r."),
                        field=f"{prefix}.pairs", value=pairs)
    if pairs > MAX_TRICK_PAIRS:
        raise UserError(gettext_noop("A trick holds at most %(most)s pairs, not %(value)s."),
                        field=f"{prefix}.pairs", most=MAX_TRICK_PAIRS, value=pairs)
    if shape == "tractor" and pairs < 2:
        raise UserError(gettext_noop("A tractor has at least 2 pairs, not %(value)s."),
                        field=f"{prefix}.pairs", value=pairs)


def _check_throw(pairs, prefix, cards):
    """A throw (甩牌): 2 cards or more in one play, its pairs (0 or more) within them."""
    if not isinstance(cards, int) or isinstance(cards, bool) or not 2 <= cards <= 2 * MAX_TRICK_PAIRS:
        raise UserError(gettext_noop("A throw holds 2 to %(most)s cards, not %(value)r."),
                        field=f"{prefix}.cards", most=2 * MAX_TRICK_PAIRS, value=cards)
    if not isinstance(pairs, int) or isinstance(pairs, bool) or pairs < 0 or 2 * pairs > cards:
        raise UserError(gettext_noop("A throw of %(cards)s cards holds 0 to %(most)s pairs, not %(value)r."),
                        field=f"{prefix}.pairs", cards=cards, most=cards // 2, value=pairs)


def _check_points(value, name, lo, hi):
    if not isinstance(value, int) or isinstance(value, bool):
        raise UserError(gettext_noop("Points must be a whole number, not %(value)r."), field=name, value=value)
    if not lo <= value <= hi:   # the range first: 999 is out of range, whatever its last digit
        raise UserError(gettext_noop("Points %(value)s are out of the range %(lo)s..%(hi)s."), field=name,
                        error_code="points_out_of_range", value=value, lo=lo, hi=hi)
    if value % 5:
        raise UserError(gettext_noop("Points %(value)s are not a multiple of 5."), field=name, value=value)


def _check_seat(seat, name):
    if seat not in _SIDE_OF:
        raise UserError(gettext_noop("Unknown seat %(value)r: enter N, E, S or W."), field=name, value=seat)


# --------------------------------------------------------------------------------------------
# Result of one hand
# --------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HandResult:
    """What one hand did: both sides' levels after it, the final defender points, who declares next.

    ``kind`` is "hand" for a scored hand, "award" for an outcome decided by a sanction
    (``defender_points`` is None then), "redeal" for a deal without trump declared (000 第五条;
    no points, levels unchanged), "rebel" for a deal the attackers called 造反 on (004 二.7; no points,
    levels unchanged, ``next_declarer`` the seat that won the new bidding) and "forfeit" for a match
    decided by a sanction.
    """
    declarer_keeps: bool
    declarer_level: str
    defender_level: str
    defender_points: int | None
    next_declarer: str | None
    match_won: bool
    explanation: list
    declarer_seat: str | None = None
    declarer_level_before: str = ""
    defender_level_before: str = ""
    bottom_multiplier: int = 0
    levels_gained: int = 0
    levels_given_back: int = 0
    rank_capture: bool = False
    must_play_waived: bool = False
    policy_next: str | None = None
    policy_available: bool = False
    policy_applied: bool = False
    kind: str = "hand"


_RESULT_FIELDS = tuple(HandResult.__dataclass_fields__)


def _result_dict(result: HandResult) -> dict:
    """A HandResult as JSON-ready data (``HandResult(**data)`` gives it back)."""
    data = {name: getattr(result, name) for name in _RESULT_FIELDS}
    data["explanation"] = list(result.explanation)
    return data


def bottom_multiplier(profile: Profile, shape: str, pairs: int = 1, trump: bool = True, *,
                      cards: int | None = None) -> int:
    """The factor on the bottom's points for a last trick won with this play (0: cannot capture)."""
    _check_shape(shape, pairs, "bottom_multiplier", cards)
    return _multiplier(profile, shape, pairs, trump, cards)


def _multiplier(p: Profile, shape, pairs, trump, cards=None) -> int:
    if p.trump_only and not trump:
        return 0
    if shape == "throw":
        if p.throw_all_cards is None:   # the largest combination counts: 0 pairs a single, 1 a pair
            shape = "single" if pairs == 0 else "pair" if pairs == 1 else "tractor"
        else:                           # all its cards count: base + per card + per pair
            base, per_card, per_pair = p.throw_all_cards
            return base + per_card * cards + per_pair * pairs
    if shape == "single":
        return p.mult_single
    if shape == "pair":
        return p.mult_pair
    return p.tractor_base + p.tractor_per_pair * pairs


def _climb(p: Profile, start: int, gain: int, may_leave: bool, give_back: bool | None = None):
    """Move a side up ``gain`` levels from ``start``; return (new index, levels lost to must-play).

    A side stops on the next must-play level; a side standing on an unwaived must-play level
    without winning as declarers there does not move. The top level stops every climb; only the
    levels lost to a must-play stop are returned, to be given back (and only when ``give_back``,
    by default the profile's ``must_play.give_back``, says so).
    """
    give_back = p.give_back if give_back is None else give_back
    if gain <= 0:
        return start, 0
    if not may_leave:
        return start, gain if give_back else 0
    target = start + gain
    stop = p.next_must[start]
    if stop >= 0 and target > stop:
        return stop, (target - stop) if give_back else 0
    return (p.top if target > p.top else target), 0


def _next_seat(seat, how):
    if how == "partner":
        return _PARTNER[seat]
    if how == "next":
        return _NEXT[seat]
    return seat


def _score(p: Profile, points, bottom_points, lt, penalty, lines):
    """Final defender points: penalties, the profile's clamp, the (multiplied) bottom."""
    raw = points + penalty
    if not POINTS_MIN <= raw <= POINTS_MAX:
        raise UserError(gettext_noop("Points plus penalties come to %(value)s, out of the range %(lo)s..%(hi)s."),
                        field="penalty_points", error_code="points_out_of_range", value=raw, lo=POINTS_MIN,
                        hi=POINTS_MAX)
    if penalty:
        lines.append(f"防家得分{points}，罚分{penalty:+d}，计{raw}")
    if p.clamp is not None and p.clamp_whole:
        if not penalty:                   # 罚分后: a hand without a fine keeps its bottom in full
            return _with_bottom(p, raw, bottom_points, lt, lines)
        final, mult = _with_bottom(p, raw, bottom_points, lt, lines)
        return _clamp(p, final, lines, "罚分后本副得分"), mult
    if p.clamp is not None:
        raw = _clamp(p, raw, lines, "得分")
    return _with_bottom(p, raw, bottom_points, lt, lines)


def _clamp(p: Profile, value, lines, what):
    """``value`` held inside the profile's clamp (a line says so when it moved)."""
    lo, hi = p.clamp
    if lo <= value <= hi:
        return value
    clamped = lo if value < lo else hi
    lines.append(f"{what}限定在{lo}..{hi}：{value}→{clamped}")
    return clamped


def _with_bottom(p: Profile, raw, bottom_points, lt, lines):
    """The points with the (multiplied) bottom counted in or subtracted, and the multiplier."""
    if lt is None:
        return raw, 0
    if lt.buried_by == "defenders" and not p.reverse_subtract:
        raise UserError(gettext_noop("Under these rules only the declaring side buries the bottom."),
                        field="last_trick.buried_by")
    if lt.by == lt.buried_by:
        return raw, 0                                   # 保底
    mult = _multiplier(p, lt.shape, lt.pairs, lt.trump, lt.cards)
    if mult == 0:
        lines.append("副牌不能抠底，底分不计")
        return raw, 0
    if bottom_points:
        gain = bottom_points * mult
        if lt.by == "defenders":
            lines.append(f"防家抠底：底分{bottom_points}×{mult}={gain}，防家得分{raw}→{raw + gain}")
            return raw + gain, mult
        lines.append(f"庄家方抠底（底牌由防家扣）：底分{bottom_points}×{mult}={gain}，"
                     f"防家得分{raw}→{raw - gain}")
        return raw - gain, mult
    return raw, mult


def _settle(p: Profile, d: int, f: int, *, points, bottom_points, lt, penalty, seat,
            may_leave_f=False, policy=None, reclaim=False) -> HandResult:
    """Settle one hand from ladder indexes; see :func:`settle_hand` for the meaning.

    ``may_leave_f``: the defenders' must-play level is waived; ``policy``: (under, return index)
    when 落实政策 is pending for the declaring side; ``reclaim``: take that option.
    """
    lines = []
    final, mult = _score(p, points, bottom_points, lt, penalty, lines)
    d0 = d
    rc = p.rank_captures.get(d) if lt is not None else None
    taken = final     # the points a J/A drop's minimum reads: without the penalties under that reading
    if (rc is not None and rc.min_points is not None and penalty and not p.capture_counts_penalties
            and lt.by == "defenders" and lt.rank == rc.rank):
        taken = _score(p, points, bottom_points, lt, 0, [])[0]
        lines.append(f"降级须捉够{rc.min_points}分，罚分不计：防家捉得{taken}")
    if rc is not None and _is_rank_capture(p, rc, lt, taken):
        drop = rc.drop_main if lt.is_main_rank else rc.drop_other
        if rc.restart:
            return _restart(p, rc, seat=seat, d=d, drop=drop, f=f, final=final, mult=mult, lines=lines)
        lad = p.ladder
        which = "主" if lt.is_main_rank else "副"
        lines.append(f"庄家打{lad[d]}，防家得分{final}并用{which}{rc.rank}抠底：庄家方降到{lad[drop]}："
                     f"{lad[d]}→{lad[drop]}")
        d = drop
    available = policy is not None and final < policy[0]
    if reclaim:
        if not available:
            raise UserError(gettext_noop("The declaring side cannot return to its level in this hand (only in "
                                         "the hand after a J/A capture restart, with the defenders under "
                                         "the profile's points)."), field="reclaim")
        lines.append(f"防家得分{final}，不满{policy[0]}：落实政策，庄家方重新打{p.ladder[policy[1]]}："
                     f"{p.ladder[d]}→{p.ladder[policy[1]]}")
        return _result(p, seat, lines, keep=True, d=policy[1], f=f, final=final, won=False, d0=d0, f0=f,
                       mult=mult, available=True, applied=True)
    keep, nd, nf, gained, lost, won = _table_result(p, d, f, final, may_leave_f, lines)
    if available:
        lines.append(f"防家得分不满{policy[0]}，庄家方可落实政策重新打{p.ladder[policy[1]]}（未选择）")
    return _result(p, seat, lines, keep=keep, d=nd, f=nf, final=final, won=won, d0=d0, f0=f, mult=mult,
                   gained=gained, lost=lost, captured=d != d0, available=available)


def _is_rank_capture(p: Profile, rc, lt, final) -> bool:
    """The defenders captured the declarers' bottom with the rank of a J/A rule (enough points)."""
    return (lt.by == "defenders" and lt.buried_by == "declarers" and lt.rank == rc.rank
            and _multiplier(p, lt.shape, lt.pairs, lt.trump, lt.cards) > 0
            and (rc.min_points is None or final >= rc.min_points))


def _restart(p: Profile, rc, *, seat, d, drop, f, final, mult, lines) -> HandResult:
    """J/A capture with outcome "restart": the declaring side keeps the stage from ``drop``."""
    lad = p.ladder
    lines.append(f"庄家打{lad[d]}被防家用{rc.rank}抠底：不论得分多少，庄家方从{lad[drop]}重新打起："
                 f"{lad[d]}→{lad[drop]}")
    if rc.waive_must_play:
        lines.append(f"此时{lad[drop]}非必打")
    policy_next = None
    if rc.policy_under is not None:
        policy_next = lad[rc.policy_return]
        lines.append(f"下一副防家得分不满{rc.policy_under}，庄家方可重新打{policy_next}（落实政策）")
    return _result(p, seat, lines, keep=True, d=drop, f=f, final=final, won=False, d0=d, f0=f, mult=mult,
                   captured=True, waived=rc.waive_must_play, policy_next=policy_next)


def _table_result(p: Profile, d, f, final, may_leave_f, lines):
    """Apply the level table, must-play stops and give-back: (keep, d, f, gained, lost, won)."""
    lad = p.ladder
    result = p.result_for(final)
    if result is None:
        raise UserError(gettext_noop("No band of the level table holds %(points)s points."),
                        field="defender_points", points=final)
    takeover, gained = result
    lost = 0
    if not takeover and gained == 0:
        lines.append(f"防家得分恰为{final}：庄家方守庄，不升级")
        return True, d, f, 0, 0, False
    if not takeover:
        if d == p.top:
            lines.append(f"防家得分{final}，庄家方打{lad[d]}获胜：打过{lad[d]}，赢得比赛")
            return True, d, f, gained, 0, True
        new, lost = _climb(p, d, gained, True)
        _gain_lines(p, lines, f"防家得分{final}，庄家方升{gained}级", d, new, d + gained)
        if lost:
            f = _give_back(lad, lines, "防家", f, lost)
        return True, new, f, gained, lost, False
    if gained == 0:
        lines.append(f"防家得分{final}，上台")
        return False, d, f, 0, 0, False
    stuck = not (may_leave_f or f not in p.must_play)
    new, lost = _climb(p, f, gained, not stuck)
    if stuck:
        lines.append(f"防家得分{final}，上台并升{gained}级")
        lines.append(f"{lad[f]}必打，须坐庄打过{lad[f]}，停在{lad[f]}")
    else:
        _gain_lines(p, lines, f"防家得分{final}，上台并升{gained}级", f, new, f + gained)
    if lost:
        d = _give_back(lad, lines, "庄家方", d, lost)
    return False, d, new, gained, lost, False


def _gain_lines(p: Profile, lines, head, start, new, target):
    lad = p.ladder
    if new == target:
        lines.append(f"{head}：{lad[start]}→{lad[new]}")
    elif new in p.must_play:
        lines.append(head)
        lines.append(f"{lad[new]}必打，停在{lad[new]}")
    else:
        lines.append(head)
        lines.append(f"升到{lad[new]}为止：{lad[start]}→{lad[new]}")


def _give_back(lad, lines, who, level, lost):
    new = level - lost if level >= lost else 0
    floor = "（退至最低级为止）" if level < lost else ""
    lines.append(f"少升{lost}级由{who}退回：{lad[level]}→{lad[new]}{floor}")
    return new


def _result(p: Profile, seat, lines, *, keep, d, f, final, won, d0, f0, mult, gained=0, lost=0, captured=False,
            waived=False, policy_next=None, available=False, applied=False) -> HandResult:
    """The HandResult of a scored hand: ``d``/``f`` the declarers'/defenders' level indexes after it, ``d0``/``f0``
    before it; the next declarer's line is added to ``lines``."""
    lad = p.ladder
    nxt = None
    if seat is not None and not won:
        how = p.rotation_win if keep else p.rotation_lose
        nxt = _next_seat(seat, how)
        lines.append(f"下一副由{nxt}坐庄（{seat}的{_ROTATION_NAMES[how]}）")
    return HandResult(declarer_keeps=keep, declarer_level=lad[d], defender_level=lad[f], defender_points=final,
                      next_declarer=nxt, match_won=won, explanation=lines, declarer_seat=seat,
                      declarer_level_before=lad[d0], defender_level_before=lad[f0], bottom_multiplier=mult,
                      levels_gained=gained, levels_given_back=lost, rank_capture=captured,
                      must_play_waived=waived, policy_next=policy_next, policy_available=available,
                      policy_applied=applied)


def settle_hand(profile: Profile, *, declarer_level, defender_level, defender_points,
                bottom_points=0, last_trick=None, declarer_seat=None, penalty_points=0) -> HandResult:
    """Settle one hand on its own (no match history): levels after it, final points, next declarer.

    ``defender_points`` are the defenders' trick points; ``penalty_points`` are already signed
    toward the defenders' total. The bottom is multiplied in per ``last_trick``.
    """
    d = profile.level_index(declarer_level, "declarer_level")
    f = profile.level_index(defender_level, "defender_level")
    _check_hand_inputs(profile, defender_points, bottom_points, last_trick, penalty_points)
    if declarer_seat is not None:
        _check_seat(declarer_seat, "declarer_seat")
    return _settle(profile, d, f, points=defender_points, bottom_points=bottom_points, lt=last_trick,
                   penalty=penalty_points, seat=declarer_seat)


def final_points(profile: Profile, *, defender_points, bottom_points=0, last_trick=None,
                 penalty_points=0) -> int:
    """The defenders' final points of one hand, as :func:`settle_hand` counts them.

    Penalties (signed toward the defenders), the profile's clamp, then the bottom multiplied in
    per ``last_trick``. For sanctions that depend on the hand's score (union-games over- or
    under-burying: levels per full 40 points).
    """
    _check_hand_inputs(profile, defender_points, bottom_points, last_trick, penalty_points)
    return _score(profile, defender_points, bottom_points, last_trick, penalty_points, [])[0]


def _check_hand_inputs(p: Profile, points, bottom_points, last_trick, penalty):
    """Trick points 0..the decks' points; the bottom 0..what its cards can hold; penalties any size."""
    _check_points(points, "defender_points", 0, p.points_total)
    _check_points(bottom_points, "bottom_points", 0, p.bottom_max)
    _check_points(penalty, "penalty_points", -2 * POINTS_MAX, 2 * POINTS_MAX)
    if last_trick is not None and not isinstance(last_trick, LastTrick):
        raise UserError(gettext_noop("The last trick must be a LastTrick, not %(value)s."), field="last_trick",
                        value=type(last_trick).__name__)


# --------------------------------------------------------------------------------------------
# A match: an immutable sequence of hands
# --------------------------------------------------------------------------------------------
class MatchState:
    """The state of one match after some hands; every method returns a new state.

    Internally levels are ladder indexes (NS, EW); the hand history is a linked list so that
    ``play`` is O(1), after the first hands' data when the state was read from data (``base``: what
    :meth:`to_dict` gave for them, made HandResults only when asked for). ``waived`` holds, per side, a
    level index whose must-play status is waived (after a J-capture restart) or -1; ``policy`` is (side,
    under, return index) or None.
    """
    __slots__ = ("profile", "_lv", "declarer", "winner", "_hist", "_count", "_waived", "_policy", "_base")

    def __init__(self, profile, lv, declarer, winner, hist, count, waived, policy, base=()):
        sa = object.__setattr__
        sa(self, "_base", base)
        sa(self, "profile", profile)
        sa(self, "_lv", lv)
        sa(self, "declarer", declarer)
        sa(self, "winner", winner)
        sa(self, "_hist", hist)
        sa(self, "_count", count)
        sa(self, "_waived", waived)
        sa(self, "_policy", policy)

    def __setattr__(self, name, value):
        raise AttributeError("MatchState is immutable; use play()/award() to get a new state")

    @classmethod
    def new(cls, profile: Profile, *, levels=None, declarer=None) -> "MatchState":
        """Both sides at the start level, no declarer yet (the first hand names it).

        ``levels`` ({"NS": .., "EW": ..}) and ``declarer`` start a match from a given position
        (a match resumed from a paper score sheet, or a test).
        """
        lv = (profile.start, profile.start)
        if levels is not None:
            if not isinstance(levels, dict) or set(levels) != set(SIDES):
                raise UserError(gettext_noop("Enter the levels as {'NS': level, 'EW': level}, not %(value)r."),
                                field="levels", value=levels)
            lv = (profile.level_index(levels["NS"], "levels.NS"),
                  profile.level_index(levels["EW"], "levels.EW"))
        if declarer is not None:
            _check_seat(declarer, "declarer")
        return cls(profile, lv, declarer, None, None, 0, (-1, -1), None)

    # -- reading ---------------------------------------------------------------------------
    @property
    def levels(self) -> dict:
        """{"NS": level, "EW": level} as level strings."""
        lad = self.profile.ladder
        return {"NS": lad[self._lv[0]], "EW": lad[self._lv[1]]}

    @property
    def hands(self) -> tuple:
        """The HandResults so far, oldest first."""
        return (*(HandResult(**item) for item in self._base), *self._played())

    @property
    def last_hand(self) -> HandResult | None:
        """The last hand's HandResult (None before the first)."""
        if self._hist is not None:
            return self._hist[0]
        return HandResult(**self._base[-1]) if self._base else None

    def hand_data(self) -> list:
        """Every hand's result as plain data (as :meth:`to_dict` keeps it), oldest first: the data a state
        read by :meth:`from_dict` was given for its first hands, as given (to be read, not changed)."""
        return [*self._base, *(_result_dict(r) for r in self._played())]

    def _played(self) -> list:
        """The HandResults played on this state or those it came from, after the ``base`` hands."""
        out = []
        node = self._hist
        while node is not None:
            out.append(node[0])
            node = node[1]
        out.reverse()
        return out

    @property
    def hand_count(self) -> int:
        return self._count

    @property
    def policy_pending(self) -> str | None:
        """The level the declaring side may return to (落实政策) if this hand's defenders score low."""
        return self.profile.ladder[self._policy[2]] if self._policy else None

    def winner_at_time(self) -> str | None:
        """The winner when time is up: the winner if any, else the profile's time-up rules in order."""
        if self.winner is not None:
            return self.winner
        ns, ew = self._lv
        for rule in self.profile.time_up:
            if rule == "higher_level" and ns != ew:
                return "NS" if ns > ew else "EW"
            if rule == "on_stage" and self.declarer is not None:
                return SIDES[_SIDE_OF[self.declarer]]
        return None

    def __repr__(self):
        return (f"MatchState({self.profile.slug}, levels={self.levels}, declarer={self.declarer!r}, "
                f"winner={self.winner!r}, hands={self._count})")

    # -- keeping ---------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The state as plain JSON-ready data (the profile excepted): :meth:`from_dict` gives it back.

        Used to keep a match's state between requests, so the next hand applies to it instead of
        replaying every hand (``scoring.snapshots``)."""
        return {"lv": list(self._lv), "declarer": self.declarer, "winner": self.winner, "count": self._count,
                "waived": list(self._waived), "policy": list(self._policy) if self._policy else None,
                "hands": self.hand_data()}

    @classmethod
    def from_dict(cls, profile: Profile, data: dict) -> "MatchState":
        """The state :meth:`to_dict` gave, under ``profile`` (the same profile version it was played with).
        The hands' data is kept as given (a hand never changes), made HandResults only when asked for."""
        policy = data["policy"]
        return cls(profile, tuple(data["lv"]), data["declarer"], data["winner"], None, data["count"],
                   tuple(data["waived"]), tuple(policy) if policy else None, tuple(data["hands"]))

    # -- playing ---------------------------------------------------------------------------
    def _seat_for(self, declarer):
        self._check_open()
        if self.declarer is None:
            if declarer is None:
                raise UserError(gettext_noop("The first hand needs the declarer's seat (who won the bidding)."),
                                field="declarer")
            _check_seat(declarer, "declarer")
            return declarer
        if declarer is not None and declarer != self.declarer:
            _check_seat(declarer, "declarer")
            raise UserError(gettext_noop("By the rotation %(expected)s declares this hand, not %(value)s."),
                            field="declarer", expected=self.declarer, value=declarer)
        return self.declarer

    def play(self, *, defender_points, declarer=None, bottom_points=0, last_trick=None,
             penalty_points=0, reclaim=False) -> "MatchState":
        """Record one hand and return the new state."""
        seat = self._seat_for(declarer)
        _check_hand_inputs(self.profile, defender_points, bottom_points, last_trick, penalty_points)
        side = _SIDE_OF[seat]
        lv = self._lv
        d, f = lv[side], lv[1 - side]
        pol = self._policy
        policy = (pol[1], pol[2]) if pol is not None and pol[0] == side else None
        r = _settle(self.profile, d, f, points=defender_points, bottom_points=bottom_points, lt=last_trick,
                    penalty=penalty_points, seat=seat, may_leave_f=self._waived[1 - side] == f, policy=policy,
                    reclaim=reclaim is True)
        idx = self.profile.index
        nd, nf = idx[r.declarer_level], idx[r.defender_level]
        new_lv = (nd, nf) if side == 0 else (nf, nd)
        waived = self._waived
        if waived != (-1, -1):                    # a waiver ends when the side leaves that level
            waived = tuple(w if w == n else -1 for w, n in zip(waived, new_lv))
        if r.must_play_waived:
            waived = (nd, waived[1]) if side == 0 else (waived[0], nd)
        new_pol = None
        if r.policy_next is not None:
            new_pol = (side, self.profile.rank_captures[d].policy_under, idx[r.policy_next])
        return MatchState(self.profile, new_lv, r.next_declarer, SIDES[side] if r.match_won else None,
                          (r, self._hist), self._count + 1, waived, new_pol, self._base)

    def award(self, *, stage, gainer=None, levels=0, next_declarer=None, drop_to=None,
              reason="", first_declarer=None) -> "MatchState":
        """Apply a non-scoring hand outcome decided by a sanction; return the new state.

        stage: "keep" (the declaring side stays on stage) or "change" (the other side takes it).
        gainer: "declarers", "defenders", "NS" or "EW": the side that goes up ``levels`` (ladder,
            top and must-play stops apply; whether an award may leave the must-play level the side
            stands on and whether lost levels come off the other side is the profile's
            ``must_play.awards``: shenzhen 2 → 7 for 升5级, company-league stays and gives back).
        next_declarer: "same", "partner", "next" (下家) or a seat; default "same" for keep and
            "next" for change. drop_to: a level the declaring side drops to first (e.g. "2"/"J").
        first_declarer: the seat declaring this hand while the match has no declarer yet (an
            award on the first hand, whose bidding the referee saw); once the rotation names the
            declarer, the rotation's seat is used and this is not consulted.
        Before the first hand without ``first_declarer``, only ``gainer`` as "NS"/"EW" and a seat
        as ``next_declarer`` are accepted.
        """
        self._check_open()
        if stage not in ("keep", "change"):
            raise UserError(gettext_noop("Enter keep or change, not %(value)r."), field="stage", value=stage)
        if not isinstance(levels, int) or isinstance(levels, bool) or levels < 0:
            raise UserError(gettext_noop("The levels must be a whole number of at least 0, not %(value)r."),
                            field="levels", value=levels)
        p, lad, seat = self.profile, self.profile.ladder, self.declarer
        if seat is None and first_declarer is not None:
            _check_seat(first_declarer, "first_declarer")
            seat = first_declarer
        lv = list(self._lv)
        lines = [reason] if reason else []
        dside = _SIDE_OF[seat] if seat is not None else None
        if drop_to is not None:
            if dside is None:
                raise UserError(gettext_noop("No side declares yet, so none can drop."), field="drop_to")
            new = p.level_index(drop_to, "drop_to")
            lines.append(f"庄家方降到{lad[new]}：{lad[lv[dside]]}→{lad[new]}")
            lv[dside] = new
        lost = 0
        if gainer is not None and levels:
            g = self._gainer_side(gainer, dside)
            lost = self._award_climb(lv, g, levels, lines)
        nxt = self._award_next(stage, next_declarer, seat)
        if nxt is not None:
            lines.append(f"下一副由{nxt}坐庄")
        keep = stage == "keep"
        d_i = lv[dside] if dside is not None else lv[0]
        f_i = lv[1 - dside] if dside is not None else lv[1]
        r = HandResult(keep, lad[d_i], lad[f_i], None, nxt, False, lines, seat,
                       lad[self._lv[dside if dside is not None else 0]],
                       lad[self._lv[1 - dside if dside is not None else 1]],
                       0, levels, lost, kind="award")
        new_lv = tuple(lv)
        waived = tuple(w if w == n else -1 for w, n in zip(self._waived, new_lv))
        return MatchState(p, new_lv, nxt, None, (r, self._hist), self._count + 1, waived, None, self._base)

    def _award_climb(self, lv, g, levels, lines):
        """Side ``g`` goes up ``levels`` by a sanction (``lv`` updated in place); return levels given back.

        The profile's ``must_play.awards`` decide: ``leave_current`` lets an award leave the
        must-play level the side stands on (000: 升5级 from 2 is 2 → 7; 第十四条's give-back is
        worded for scores), and ``always_leave`` names the must-play levels it leaves even so (000: 2, as
        第十七条 writes its exceptions for A and J only); otherwise the side stays there as after a score. The next must-play
        level still stops the climb; ``give_back`` says whether the levels lost come off the other side.
        """
        p, lad = self.profile, self.profile.ladder
        start = lv[g]
        on_must = start in p.must_play and self._waived[g] != start
        stuck = on_must and not (p.award_leaves_must_play or start in p.award_always_leaves)
        new, lost = _climb(p, start, levels, not stuck, give_back=True)
        if stuck:
            lines.append(f"{SIDES[g]}升{levels}级：{lad[start]}必打，须坐庄打过{lad[start]}，停在{lad[start]}")
        else:
            left = f"（处罚升级不受{lad[start]}必打限制）" if on_must else ""
            lines.append(f"{SIDES[g]}升{levels}级：{lad[start]}→{lad[new]}{left}")
            if new != start + levels and new in p.must_play:
                lines.append(f"{lad[new]}必打，停在{lad[new]}")
            elif new != start + levels:
                lines.append(f"升到{lad[new]}为止")
        lv[g] = new
        if lost and not p.award_give_back:
            lines.append(f"少升的{lost}级不由{SIDES[1 - g]}退回（必打退级只适用于得分）")
            return 0
        if lost:
            lv[1 - g] = _give_back(lad, lines, SIDES[1 - g], lv[1 - g], lost)
        return lost

    def redeal(self, *, reason="") -> "MatchState":
        """No player declared trump by the end of the deal (000 第五条: 庄家下台，重洗重抓，下家坐庄).

        Records a hand with no score (kind "redeal"): levels unchanged, the deal passes per the
        profile's ``rotation.no_trump_declared`` (shenzhen: the declarer's 下家, so the stage changes);
        the next ``play`` expects that seat. A pending 落实政策 lapses (it was the declaring side's).
        Refused before the first hand (the first deal is simply dealt again) and where the profile
        has no such outcome (null: trump comes from the bottom instead).
        """
        self._check_open()
        p, seat = self.profile, self.declarer
        how = p.rotation_no_trump
        if how is None:
            raise UserError(gettext_noop("Under these rules a deal without trump declared is not redealt."),
                            field="redeal")
        if seat is None:
            raise UserError(gettext_noop("No declarer yet: the first deal is simply dealt again."),
                            field="declarer")
        nxt = _next_seat(seat, how)
        side = _SIDE_OF[seat]
        keep = _SIDE_OF[nxt] == side
        lines = [reason] if reason else []
        lines.append(f"至抓牌结束没有牌手亮主：{'庄家方继续坐庄' if keep else '庄家下台'}，重洗重抓")
        lines.append(f"下一副由{nxt}坐庄（{seat}的{_ROTATION_NAMES[how]}）")
        return self._unscored(keep=keep, nxt=nxt, lines=lines, kind="redeal")

    def rebel(self, *, caller_side, winner_seat, reason="", counted=False) -> "MatchState":
        """造反 (004 二.7): 进攻方一人手中不足15分（含15分）时，可造反。确认造反后，应重新起牌，……双方抢庄.

        A player of the side off stage (``caller_side``, "NS" or "EW") called it (the referee attests the
        points: nobody else sees the hand); the deal is redone and both sides bid for the stage: whoever
        declares trump first (``winner_seat``) declares the next deal at their own side's level. Records an
        entry with no score (kind "rebel"): levels unchanged, a pending 落实政策 lapses, and no hand is counted
        (:attr:`hand_count`: the abandoned deal is no hand; ``counted`` replays an entry stored when a 造反 still
        took a hand number of its own). The rotation
        contract of :meth:`play` stays: this transition is the only way the declarer leaves the rotation.
        Refused where the profile's ``rotation.rebellion`` is false, before the first hand (its bidding
        decides anyway) and for the declaring side.
        """
        self._check_open()
        p, seat = self.profile, self.declarer
        if not p.rebellion:
            raise UserError(gettext_noop("Under these rules the attackers cannot call a rebellion."),
                            field="outcome")
        if seat is None:
            raise UserError(gettext_noop("No declarer yet: the first hand's bidding decides the stage."),
                            field="declarer")
        if caller_side not in _SIDE_INDEX:
            raise UserError(gettext_noop("Enter NS or EW, not %(value)r."), field="called_by", value=caller_side)
        side = _SIDE_OF[seat]
        if _SIDE_INDEX[caller_side] == side:
            raise UserError(gettext_noop("Only the attacking side may call a rebellion."), field="called_by")
        _check_seat(winner_seat, "declarer")
        keep = _SIDE_OF[winner_seat] == side
        lines = [reason] if reason else []
        lines.append(f"{caller_side}造反：重新起牌，双方抢庄")
        lines.append(f"下一副由{winner_seat}坐庄")
        return self._unscored(keep=keep, nxt=winner_seat, lines=lines, kind="rebel", counts=counted)

    def _unscored(self, *, keep, nxt, lines, kind, counts=True) -> "MatchState":
        """An entry that scores nothing (a redeal, a 造反): levels unchanged, ``nxt`` declares the next deal, a
        pending 落实政策 lapses; ``counts``: it is one of the hands counted (a redeal; a 造反 is none)."""
        lad, seat = self.profile.ladder, self.declarer
        side = _SIDE_OF[seat]
        d, f = self._lv[side], self._lv[1 - side]
        r = HandResult(keep, lad[d], lad[f], None, nxt, False, lines, seat, lad[d], lad[f], kind=kind)
        return MatchState(self.profile, self._lv, nxt, None, (r, self._hist), self._count + int(counts),
                          self._waived, None, self._base)

    def _check_open(self):
        if self.winner is not None:
            raise UserError(gettext_noop("The match is over: %(winner)s has won."), field="hand",
                            winner=self.winner)

    @staticmethod
    def _gainer_side(gainer, dside):
        if gainer in _SIDE_INDEX:
            return _SIDE_INDEX[gainer]
        if gainer not in _BY:
            raise UserError(gettext_noop("Enter declarers, defenders, NS or EW, not %(value)r."),
                            field="gainer", value=gainer)
        if dside is None:
            raise UserError(gettext_noop("No side declares yet: enter NS or EW."), field="gainer")
        return dside if gainer == "declarers" else 1 - dside

    @staticmethod
    def _award_next(stage, next_declarer, seat):
        if next_declarer in _SIDE_OF:
            nxt = next_declarer
        elif seat is None:
            if next_declarer is not None:
                raise UserError(gettext_noop("No side declares yet: enter a seat N/E/S/W."),
                                field="next_declarer")
            return None
        else:
            how = next_declarer or ("same" if stage == "keep" else "next")
            if how not in _ROTATION_NAMES:
                raise UserError(gettext_noop("Enter same, partner, next or a seat, not %(value)r."),
                                field="next_declarer", value=next_declarer)
            nxt = _next_seat(seat, how)
        if seat is not None and (_SIDE_OF[nxt] == _SIDE_OF[seat]) != (stage == "keep"):
            raise UserError(gettext_noop("%(seat)s does not fit stage=%(stage)s (keep: a declarer's seat, "
                                         "change: an opponent's)."), field="next_declarer", seat=nxt, stage=stage)
        return nxt

    def forfeit_match(self, *, winner, reason="") -> "MatchState":
        """End the match by a sanction (判负/弃权): ``winner`` is "NS" or "EW"."""
        self._check_open()
        if winner not in _SIDE_INDEX:
            raise UserError(gettext_noop("Enter NS or EW, not %(value)r."), field="winner", value=winner)
        lad, lv = self.profile.ladder, self._lv
        lines = ([reason] if reason else []) + [f"判{winner}获胜"]
        seat = self.declarer
        ds = _SIDE_OF[seat] if seat is not None else 0
        r = HandResult(seat is not None and SIDES[ds] == winner, lad[lv[ds]], lad[lv[1 - ds]], None,
                       None, True, lines, seat, lad[lv[ds]], lad[lv[1 - ds]], kind="forfeit")
        return MatchState(self.profile, lv, None, winner, (r, self._hist), self._count + 1,
                          self._waived, None, self._base)

"""One hand settled: the final points, the level table, must-play stops, J/A captures (pure: no Django).

Each step explains itself with an item (:mod:`.lines`); :func:`make_result` writes the Chinese lines from
them, so ``HandResult.explanation`` and ``HandResult.items`` say the same.
"""
from __future__ import annotations

from dataclasses import dataclass

from common.errors import UserError, gettext_noop

from ..profiles import POINTS_MAX, POINTS_MIN, Profile
from .inputs import check_hand_inputs, check_seat, check_shape, next_seat
from .lines import NEXT_BY, chinese, item


@dataclass(frozen=True, slots=True)
class HandResult:
    """What one hand did: both sides' levels after it, the final defender points, who declares next.

    ``kind`` is "hand" for a scored hand, "award" for an outcome decided by a sanction
    (``defender_points`` is None then), "redeal" for a deal without trump declared (000 第五条;
    no points, levels unchanged), "rebel" for a deal the attackers called 造反 on (004 二.7; no points,
    levels unchanged, ``next_declarer`` the seat that won the new bidding) and "forfeit" for a match
    decided by a sanction. ``explanation``: the Chinese lines; ``items``: the same lines as data
    (:mod:`scoring.engine.lines`), which a page renders in its language.
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
    items: list | tuple = ()   # a list, as read back from data; () in a result made without items


_RESULT_FIELDS = tuple(HandResult.__dataclass_fields__)


def make_result(*args, items, **kwargs) -> HandResult:
    """A HandResult explained by ``items``: its Chinese lines written from them."""
    return HandResult(*args, explanation=[chinese(line) for line in items], items=list(items), **kwargs)


def result_dict(result: HandResult) -> dict:
    """A HandResult as JSON-ready data (``HandResult(**data)`` gives it back)."""
    data = {name: getattr(result, name) for name in _RESULT_FIELDS}
    data["explanation"] = list(result.explanation)
    data["items"] = list(result.items)
    return data


def bottom_multiplier(profile: Profile, shape: str, pairs: int = 1, trump: bool = True, *,
                      cards: int | None = None) -> int:
    """The factor on the bottom's points for a last trick won with this play (0: cannot capture)."""
    check_shape(shape, pairs, "bottom_multiplier", cards)
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


def climb(p: Profile, start: int, gain: int, may_leave: bool, give_back: bool | None = None):
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


def _score(p: Profile, points, bottom_points, lt, penalty, lines):
    """Final defender points: penalties, the profile's clamp, the (multiplied) bottom."""
    raw = points + penalty
    if not POINTS_MIN <= raw <= POINTS_MAX:
        raise UserError(gettext_noop("Points plus penalties come to %(value)s, out of the range %(lo)s..%(hi)s."),
                        field="penalty_points", error_code="points_out_of_range", value=raw, lo=POINTS_MIN,
                        hi=POINTS_MAX)
    if penalty:
        lines.append(item("penalty", points=points, penalty=f"{penalty:+d}", total=raw))
    if p.clamp is not None and p.clamp_whole:
        if not penalty:                   # 罚分后: a hand without a fine keeps its bottom in full
            return _with_bottom(p, raw, bottom_points, lt, lines)
        final, mult = _with_bottom(p, raw, bottom_points, lt, lines)
        return _clamp(p, final, lines, "clamp_after_penalties"), mult
    if p.clamp is not None:
        raw = _clamp(p, raw, lines, "clamp")
    return _with_bottom(p, raw, bottom_points, lt, lines)


def _clamp(p: Profile, value, lines, code):
    """``value`` held inside the profile's clamp (a line says so when it moved)."""
    lo, hi = p.clamp
    if lo <= value <= hi:
        return value
    clamped = lo if value < lo else hi
    lines.append(item(code, lo=lo, hi=hi, value=value, held=clamped))
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
        lines.append(item("plain_no_bottom"))
        return raw, 0
    if bottom_points:
        gain = bottom_points * mult
        after = raw + gain if lt.by == "defenders" else raw - gain
        code = "bottom_defenders" if lt.by == "defenders" else "bottom_declarers"
        lines.append(item(code, bottom=bottom_points, mult=mult, gain=gain, before=raw, after=after))
        return after, mult
    return raw, mult


def settle(p: Profile, d: int, f: int, *, points, bottom_points, lt, penalty, seat,
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
        lines.append(item("capture_needs_points", need=rc.min_points, points=taken))
    if rc is not None and _is_rank_capture(p, rc, lt, taken):
        drop = rc.drop_main if lt.is_main_rank else rc.drop_other
        if rc.restart:
            return _restart(p, rc, seat=seat, d=d, drop=drop, f=f, final=final, mult=mult, lines=lines)
        lad = p.ladder
        lines.append(item("rank_drop", level=lad[d], points=final, which="trump" if lt.is_main_rank else "plain",
                          rank=rc.rank, drop=lad[drop]))
        d = drop
    available = policy is not None and final < policy[0]
    if reclaim:
        if not available:
            raise UserError(gettext_noop("The declaring side cannot return to its level in this hand (only in "
                                         "the hand after a J/A capture restart, with the defenders under "
                                         "the profile's points)."), field="reclaim")
        lines.append(item("policy_applied", points=final, under=policy[0], back=p.ladder[policy[1]],
                          level=p.ladder[d]))
        return _result(p, seat, lines, keep=True, d=policy[1], f=f, final=final, won=False, d0=d0, f0=f,
                       mult=mult, available=True, applied=True)
    keep, nd, nf, gained, lost, won = _table_result(p, d, f, final, may_leave_f, lines)
    if available:
        lines.append(item("policy_not_chosen", under=policy[0], back=p.ladder[policy[1]]))
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
    lines.append(item("restart", level=lad[d], rank=rc.rank, drop=lad[drop]))
    if rc.waive_must_play:
        lines.append(item("restart_not_must", level=lad[drop]))
    policy_next = None
    if rc.policy_under is not None:
        policy_next = lad[rc.policy_return]
        lines.append(item("policy_offer", under=rc.policy_under, back=policy_next))
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
        lines.append(item("exact", points=final))
        return True, d, f, 0, 0, False
    if not takeover:
        if d == p.top:
            lines.append(item("top_won", points=final, level=lad[d]))
            return True, d, f, gained, 0, True
        new, lost = climb(p, d, gained, True)
        gain_lines(p, lines, ("keep_up", {"points": final, "levels": gained}), d, new, d + gained)
        if lost:
            f = give_back(lad, lines, "defenders", f, lost)
        return True, new, f, gained, lost, False
    if gained == 0:
        lines.append(item("take", points=final))
        return False, d, f, 0, 0, False
    stuck = not (may_leave_f or f not in p.must_play)
    new, lost = climb(p, f, gained, not stuck)
    if stuck:
        lines.append(item("take_up", points=final, levels=gained))
        lines.append(item("must_win", level=lad[f]))
    else:
        gain_lines(p, lines, ("take_up", {"points": final, "levels": gained}), f, new, f + gained)
    if lost:
        d = give_back(lad, lines, "declarers", d, lost)
    return False, d, new, gained, lost, False


def gain_lines(p: Profile, lines, head, start, new, target):
    """The lines of a climb from ``start`` to ``new`` (``target`` without a stop): ``head`` is (code, values)
    of its first line, whose code with "_to" says the climb's levels when nothing stopped it."""
    lad = p.ladder
    code, values = head
    if new == target:
        lines.append(item(f"{code}_to", **values, before=lad[start], after=lad[new]))
    elif new in p.must_play:
        lines.append(item(code, **values))
        lines.append(item("must_stop", level=lad[new]))
    else:
        lines.append(item(code, **values))
        lines.append(item("top_stop_from", level=lad[new], before=lad[start]))


def give_back(lad, lines, who, level, lost):
    """``who`` ("defenders", "declarers" or a side) gives back ``lost`` levels from ``level``: the new level."""
    new = level - lost if level >= lost else 0
    code = "give_back_floor" if level < lost else "give_back"
    lines.append(item(code, lost=lost, who=who, before=lad[level], after=lad[new]))
    return new


def next_line(seat, how, nxt) -> dict:
    """The next declarer's line: ``nxt`` is ``how`` ("partner", "next", "same") of ``seat``."""
    return item(NEXT_BY[how], next=nxt, seat=seat)


def _result(p: Profile, seat, lines, *, keep, d, f, final, won, d0, f0, mult, gained=0, lost=0, captured=False,
            waived=False, policy_next=None, available=False, applied=False) -> HandResult:
    """The HandResult of a scored hand: ``d``/``f`` the declarers'/defenders' level indexes after it, ``d0``/``f0``
    before it; the next declarer's line is added to ``lines``."""
    lad = p.ladder
    nxt = None
    if seat is not None and not won:
        how = p.rotation_win if keep else p.rotation_lose
        nxt = next_seat(seat, how)
        lines.append(next_line(seat, how, nxt))
    return make_result(declarer_keeps=keep, declarer_level=lad[d], defender_level=lad[f], defender_points=final,
                       next_declarer=nxt, match_won=won, items=lines, declarer_seat=seat,
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
    check_hand_inputs(profile, defender_points, bottom_points, last_trick, penalty_points)
    if declarer_seat is not None:
        check_seat(declarer_seat, "declarer_seat")
    return settle(profile, d, f, points=defender_points, bottom_points=bottom_points, lt=last_trick,
                  penalty=penalty_points, seat=declarer_seat)


def final_points(profile: Profile, *, defender_points, bottom_points=0, last_trick=None,
                 penalty_points=0) -> int:
    """The defenders' final points of one hand, as :func:`settle_hand` counts them.

    Penalties (signed toward the defenders), the profile's clamp, then the bottom multiplied in
    per ``last_trick``. For sanctions that depend on the hand's score (union-games over- or
    under-burying: levels per full 40 points).
    """
    check_hand_inputs(profile, defender_points, bottom_points, last_trick, penalty_points)
    return _score(profile, defender_points, bottom_points, last_trick, penalty_points, [])[0]


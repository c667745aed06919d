"""A match: an immutable sequence of hands, awards, redeals and forfeits (pure: no Django)."""
from __future__ import annotations

from common.errors import UserError, gettext_noop
from common.seats import SIDES

from ..profiles import Profile
from .hand import HandResult, climb, give_back, make_result, next_line, result_dict, settle
from .inputs import BY, ROTATIONS, SIDE_INDEX, SIDE_OF, check_hand_inputs, check_seat, next_seat
from .lines import item, reason_item


def _reason(reason) -> list:
    """The first lines of an award, a redeal, a 造反 or a forfeit: its reason's item, if any."""
    found = reason_item(reason)
    return [found] if found is not None else []


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
            check_seat(declarer, "declarer")
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
        return (*(HandResult(**data) for data in self._base), *self._played())

    @property
    def last_hand(self) -> HandResult | None:
        """The last hand's HandResult (None before the first)."""
        if self._hist is not None:
            return self._hist[0]
        return HandResult(**self._base[-1]) if self._base else None

    def hand_data(self) -> list:
        """Every hand's result as plain data (as :meth:`to_dict` keeps it), oldest first: the data a state
        read by :meth:`from_dict` was given for its first hands, as given (to be read, not changed)."""
        return [*self._base, *(result_dict(r) for r in self._played())]

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
                return SIDES[SIDE_OF[self.declarer]]
        return None

    def __repr__(self):
        return (f"MatchState({self.profile.slug}, levels={self.levels}, declarer={self.declarer!r}, "
                f"winner={self.winner!r}, hands={self._count})")

    # -- keeping ---------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """The state as plain JSON-ready data (the profile excepted): :meth:`from_dict` gives it back.

        Used to keep a match's state between requests, so the next hand applies to it instead of
        replaying every hand (``tournament.records.snapshots``)."""
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
            check_seat(declarer, "declarer")
            return declarer
        if declarer is not None and declarer != self.declarer:
            check_seat(declarer, "declarer")
            raise UserError(gettext_noop("By the rotation %(expected)s declares this hand, not %(value)s."),
                            field="declarer", expected=self.declarer, value=declarer)
        return self.declarer

    def play(self, *, defender_points, declarer=None, bottom_points=0, last_trick=None,
             penalty_points=0, reclaim=False) -> "MatchState":
        """Record one hand and return the new state."""
        seat = self._seat_for(declarer)
        check_hand_inputs(self.profile, defender_points, bottom_points, last_trick, penalty_points)
        side = SIDE_OF[seat]
        lv = self._lv
        d, f = lv[side], lv[1 - side]
        pol = self._policy
        policy = (pol[1], pol[2]) if pol is not None and pol[0] == side else None
        r = settle(self.profile, d, f, points=defender_points, bottom_points=bottom_points, lt=last_trick,
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
            check_seat(first_declarer, "first_declarer")
            seat = first_declarer
        lv = list(self._lv)
        lines = _reason(reason)
        dside = SIDE_OF[seat] if seat is not None else None
        if drop_to is not None:
            if dside is None:
                raise UserError(gettext_noop("No side declares yet, so none can drop."), field="drop_to")
            new = p.level_index(drop_to, "drop_to")
            lines.append(item("drop_to", level=lad[new], before=lad[lv[dside]]))
            lv[dside] = new
        lost = 0
        if gainer is not None and levels:
            g = self._gainer_side(gainer, dside)
            lost = self._award_climb(lv, g, levels, lines)
        nxt = self._award_next(stage, next_declarer, seat)
        if nxt is not None:
            lines.append(item("next", next=nxt))
        keep = stage == "keep"
        d_i = lv[dside] if dside is not None else lv[0]
        f_i = lv[1 - dside] if dside is not None else lv[1]
        r = make_result(keep, lad[d_i], lad[f_i], None, nxt, False, declarer_seat=seat,
                        declarer_level_before=lad[self._lv[dside if dside is not None else 0]],
                        defender_level_before=lad[self._lv[1 - dside if dside is not None else 1]],
                        levels_gained=levels, levels_given_back=lost, kind="award", items=lines)
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
        new, lost = climb(p, start, levels, not stuck, give_back=True)
        if stuck:
            lines.append(item("award_stuck", side=SIDES[g], levels=levels, level=lad[start]))
        else:
            lines.append(item("award_up_free" if on_must else "award_up", side=SIDES[g], levels=levels,
                              before=lad[start], after=lad[new]))
            if new != start + levels and new in p.must_play:
                lines.append(item("must_stop", level=lad[new]))
            elif new != start + levels:
                lines.append(item("top_stop", level=lad[new]))
        lv[g] = new
        if lost and not p.award_give_back:
            lines.append(item("award_no_give_back", lost=lost, side=SIDES[1 - g]))
            return 0
        if lost:
            lv[1 - g] = give_back(lad, lines, SIDES[1 - g], lv[1 - g], lost)
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
        nxt = next_seat(seat, how)
        side = SIDE_OF[seat]
        keep = SIDE_OF[nxt] == side
        lines = _reason(reason)
        lines.append(item("redeal_keep" if keep else "redeal_lose"))
        lines.append(next_line(seat, how, nxt))
        return self._unscored(keep=keep, nxt=nxt, lines=lines, kind="redeal")

    def rebel(self, *, caller_side, winner_seat, reason="", counted=False) -> "MatchState":
        """造反 (004 二.7): 进攻方一人手中不足15分（含15分）时，可造反。确认造反后，应重新起牌，……双方抢庄.

        A player of the side off stage (``caller_side``, "NS" or "EW") called it (the referee attests the
        points: nobody else sees the hand); the deal is redone and both sides bid for the stage: whoever
        declares trump first (``winner_seat``) declares the next deal at their own side's level. Records an
        entry with no score (kind "rebel"): levels unchanged, a pending 落实政策 lapses, and no hand is counted
        (:attr:`hand_count`: the abandoned deal is no hand; ``counted`` replays an entry stored when a 造反 still
        took a hand number of its own). The rotation contract of :meth:`play` stays: this transition is the only way the declarer leaves the rotation.
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
        if caller_side not in SIDE_INDEX:
            raise UserError(gettext_noop("Enter NS or EW, not %(value)r."), field="called_by", value=caller_side)
        side = SIDE_OF[seat]
        if SIDE_INDEX[caller_side] == side:
            raise UserError(gettext_noop("Only the attacking side may call a rebellion."), field="called_by")
        check_seat(winner_seat, "declarer")
        keep = SIDE_OF[winner_seat] == side
        lines = _reason(reason)
        lines.append(item("rebel", side=caller_side))
        lines.append(item("next", next=winner_seat))
        return self._unscored(keep=keep, nxt=winner_seat, lines=lines, kind="rebel", counts=counted)

    def _unscored(self, *, keep, nxt, lines, kind, counts=True) -> "MatchState":
        """An entry that scores nothing (a redeal, a 造反): levels unchanged, ``nxt`` declares the next deal, a
        pending 落实政策 lapses; ``counts``: it is one of the hands counted (a redeal; a 造反 is none)."""
        lad, seat = self.profile.ladder, self.declarer
        side = SIDE_OF[seat]
        d, f = self._lv[side], self._lv[1 - side]
        r = make_result(keep, lad[d], lad[f], None, nxt, False, declarer_seat=seat, declarer_level_before=lad[d],
                        defender_level_before=lad[f], kind=kind, items=lines)
        return MatchState(self.profile, self._lv, nxt, None, (r, self._hist), self._count + int(counts),
                          self._waived, None, self._base)

    def _check_open(self):
        if self.winner is not None:
            raise UserError(gettext_noop("The match is over: %(winner)s has won."), field="hand",
                            winner=self.winner)

    @staticmethod
    def _gainer_side(gainer, dside):
        if gainer in SIDE_INDEX:
            return SIDE_INDEX[gainer]
        if gainer not in BY:
            raise UserError(gettext_noop("Enter declarers, defenders, NS or EW, not %(value)r."),
                            field="gainer", value=gainer)
        if dside is None:
            raise UserError(gettext_noop("No side declares yet: enter NS or EW."), field="gainer")
        return dside if gainer == "declarers" else 1 - dside

    @staticmethod
    def _award_next(stage, next_declarer, seat):
        if next_declarer in SIDE_OF:
            nxt = next_declarer
        elif seat is None:
            if next_declarer is not None:
                raise UserError(gettext_noop("No side declares yet: enter a seat N/E/S/W."),
                                field="next_declarer")
            return None
        else:
            how = next_declarer or ("same" if stage == "keep" else "next")
            if how not in ROTATIONS:
                raise UserError(gettext_noop("Enter same, partner, next or a seat, not %(value)r."),
                                field="next_declarer", value=next_declarer)
            nxt = next_seat(seat, how)
        if seat is not None and (SIDE_OF[nxt] == SIDE_OF[seat]) != (stage == "keep"):
            raise UserError(gettext_noop("%(seat)s does not fit stage=%(stage)s (keep: a declarer's seat, "
                                         "change: an opponent's)."), field="next_declarer", seat=nxt, stage=stage)
        return nxt

    def forfeit_match(self, *, winner, reason="") -> "MatchState":
        """End the match by a sanction (判负/弃权): ``winner`` is "NS" or "EW"."""
        self._check_open()
        if winner not in SIDE_INDEX:
            raise UserError(gettext_noop("Enter NS or EW, not %(value)r."), field="winner", value=winner)
        lad, lv = self.profile.ladder, self._lv
        lines = [*_reason(reason), item("forfeit", side=winner)]
        seat = self.declarer
        ds = SIDE_OF[seat] if seat is not None else 0
        r = make_result(seat is not None and SIDES[ds] == winner, lad[lv[ds]], lad[lv[1 - ds]], None, None, True,
                        declarer_seat=seat, declarer_level_before=lad[lv[ds]],
                        defender_level_before=lad[lv[1 - ds]], kind="forfeit", items=lines)
        return MatchState(self.profile, lv, None, winner, (r, self._hist), self._count + 1,
                          self._waived, None, self._base)

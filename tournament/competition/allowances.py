"""A table's hand allowance in force: the HandAllowance fixed when the announcement (or the end) reached the
table, moved on by what the records say since (000 第十五条 自宣布之时起手中正在打（已开始出牌）的这副牌不算，
之后各桌必须打满三副牌): the first-lead answer the table gives when the announcement asks it (while that hand
is still in play) and a redeal that does not count (the organiser choice redeal_after_announcement); a 造反
(004 二.7) needs nothing: it holds no hand number and the engine counts no hand for it. Read by
the clock's hands left, the display and the result of the match (``tournament.competition.results``), so all
three agree.

    in_force(allowance, state, match) -> InForce | None
    lead_answer(match, hand_number) -> bool | None      the latest first-lead answer (None: none given)
"""
from __future__ import annotations

from typing import NamedTuple

from tournament.engines import clock as clocks
from tournament.models import HandAllowance, LeadReport


class InForce(NamedTuple):
    reason: str              # HandAllowance.Reason
    hand_in_play: int
    last_hand: int           # the last hand the table may play now
    asks_lead: bool = False  # the first-lead answer for the hand in play decides whether it counts


def lead_answer(match, hand_number):
    """The table's latest answer to "first lead of ``hand_number`` made?" (None: no answer)."""
    report = (LeadReport.objects.filter(match_id=match.pk, hand_number=hand_number)
              .order_by("-reported_at", "-pk").values_list("lead_made", flat=True).first())
    return report


def in_force(allowance, state, match) -> InForce | None:
    """The allowance in force, or None while the table's hands are not limited. ``state``: the match's
    replayed engine state (its hands' kinds), or a function giving it, called only when a redeal could
    move the last hand on (so a table without such an allowance is not replayed for it)."""
    if allowance is None:
        return None
    last = allowance.last_hand
    if allowance.reason != HandAllowance.Reason.ANNOUNCE:
        return InForce(allowance.reason, allowance.hand_in_play, last)
    counted = allowance.in_play_counted
    asks = allowance.in_play_by_rule is False
    if asks:   # the answer given then decides (no answer: taken as led, the hand in play does not count)
        now = lead_answer(match, allowance.hand_in_play) is False
        last += int(bool(counted)) - int(now)
        counted = now
    if allowance.redeals_count is False:
        hands = state().hands if callable(state) else state.hands
        last = clocks.last_hand_in_force(last, allowance.hand_in_play, [hand.kind for hand in hands],
                                         redeals_count=allowance.redeals_count is not False,
                                         in_play_counted=bool(counted))
    return InForce(allowance.reason, allowance.hand_in_play, last, asks)

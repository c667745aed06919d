"""A table's hand allowance in force: the HandAllowance fixed when the announcement (or the end) reached the
table, moved on by what the records say since (000 第十五条 之后各桌必须打满三副牌: a redeal that does not
count, the organiser choice redeal_after_announcement). Read by the clock's hands left, the display and the
result of the match (``tournament.competition.results``), so all three agree.

    in_force(allowance, state) -> InForce | None
"""
from __future__ import annotations

from typing import NamedTuple

from tournament.clocks import arithmetic as clocks
from tournament.models import HandAllowance


class InForce(NamedTuple):
    reason: str              # HandAllowance.Reason
    hand_in_play: int
    last_hand: int           # the last hand the table may play now


def in_force(allowance, state) -> InForce | None:
    """The allowance in force, or None while the table's hands are not limited. ``state``: the match's
    replayed engine state (its hands' kinds), or a function giving it, called only when a redeal could
    move the last hand on (so a table without such an allowance is not replayed for it)."""
    if allowance is None:
        return None
    last = allowance.last_hand
    if allowance.reason == HandAllowance.Reason.ANNOUNCE and allowance.redeals_count is False:
        kinds = [hand.kind for hand in state().hands] if callable(state) else [hand.kind for hand in state.hands]
        last = clocks.last_hand_in_force(last, allowance.hand_in_play, kinds, redeals_count=False,
                                         in_play_counted=bool(allowance.in_play_counted))
    return InForce(allowance.reason, allowance.hand_in_play, last)

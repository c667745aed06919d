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
  * Every HandResult explains itself twice: ``explanation``, the Chinese lines (the record the contract
    reads), and ``items``, the same lines as data (``{"code", "values"}``, :mod:`scoring.engine.lines`),
    which pages render in their language. An award's or a forfeit's ``reason`` is a text or an item given
    whole (a sanction quoted by the rulings layer, with the Chinese ``text`` it reads as).

The package: :mod:`.inputs` (LastTrick and the checks), :mod:`.lines` (the explanation's codes),
:mod:`.hand` (one hand settled), :mod:`.match` (MatchState).
"""
from __future__ import annotations

from common.seats import SEATS, SIDES

from .hand import HandResult, bottom_multiplier, final_points, settle_hand
from .inputs import MAX_TRICK_PAIRS, LastTrick
from .match import MatchState

__all__ = ["SEATS", "SIDES", "LastTrick", "HandResult", "MatchState", "bottom_multiplier", "settle_hand",
           "final_points", "MAX_TRICK_PAIRS"]

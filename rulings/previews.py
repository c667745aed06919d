"""What a ruling would do if recorded now: its sanction and, for a ruling that changes a hand already
played (a lateness recorded hands later goes to hand 1), which hand it changes and how the current
levels move. Nothing is stored: the new ruling is replayed on top of the match's rulings in memory.
"""
from __future__ import annotations

from django.utils.translation import gettext, gettext_noop

from rulings.adjustments import TableState, match_replay
from rulings.engine import normalise_side
from rulings.ledger import IN_FORCE, PENDING, Entry, match_rulings, replay_rulings, sanction_dict
from rulings.models import Ruling
from rulings.services import _with_declarer, engine_call, offender_role_in, sanction_inputs

SIDE_NAMES = {"NS": gettext_noop("North-South"), "EW": gettext_noop("East-West")}


def preview_with_impact(match, code, side, *, minutes=None, cards=None, choice=None, role=None, seconds=None,
                        hand_number=None, declarer=None):
    """(the sanction, the impact dict) of recording this offence now; nothing is stored. ``declarer``: the seat
    the referee gives while the table has none; a sanction that needs one is refused without it, as the record
    refuses it (``rulings.services``), so the console's 确认 stays disabled until it is given.

    The impact: ``hand_number`` (the hand the ruling goes to), ``hand_in_play``, ``earlier_hand``
    (True when that hand is already recorded), ``levels_before`` and ``levels_after`` (the current
    levels, before and after), ``winner_after`` and ``text`` (a sentence for the console, in the
    active language; empty when the ruling changes no recorded hand and no level).
    """
    inputs = sanction_inputs(code, side, minutes, cards, choice, role, seconds)
    ledger, entries = replay_rulings(match, match_rulings(match, for_replay=True))
    sanction = engine_call(ledger.record, **inputs)
    before = match_replay(match, entries)
    state = _with_declarer(TableState.of(before.state), declarer, sanction)   # the record's own check
    number = 1 if sanction.effect.applies_to == "first_hand" else (hand_number or state.hand_number)
    offender = normalise_side(inputs["side"])
    ruling = Ruling(match=match, hand_number=number, code=code, side=offender, role=inputs["role"] or "",
                    offender_role=offender_role_in(offender, inputs["role"], state), minutes=minutes,
                    seconds=seconds, cards=cards, choice=inputs["choice"] or "", sanction=sanction_dict(sanction),
                    profile=match.profile, context={"declarer": state.declarer, "levels": state.levels,
                                                    "level_played": state.level_played,
                                                    "hand_number": state.hand_number})
    waiting = sanction.needs_approval or sanction.pending_choice
    after = match_replay(match, [*entries, Entry(ruling, sanction, PENDING if waiting else IN_FORCE)], before.hands)
    levels_before, levels_after = dict(before.state.levels), dict(after.state.levels)
    earlier = number < state.hand_number
    return sanction, {
        "hand_number": number, "hand_in_play": state.hand_number, "earlier_hand": earlier,
        "levels_before": levels_before, "levels_after": levels_after, "winner_after": after.state.winner,
        "text": impact_text(number, earlier, levels_before, levels_after),
    }


def impact_text(number, earlier, before, after):
    """The console's sentence: the hand changed and each side's level now → after."""
    moves = ", ".join(
        gettext("%(side)s %(before)s → %(after)s") % {"side": gettext(SIDE_NAMES[side]), "before": before[side],
                                                        "after": after[side]}
        for side in ("NS", "EW"))
    if earlier:
        return gettext("This ruling changes hand %(hand)s, already recorded; the current levels move: %(moves)s.") % {
            "hand": number, "moves": moves}
    if before != after:
        return gettext("The current levels move: %(moves)s.") % {"moves": moves}
    return ""

"""What a ruling would do if recorded now: its sanction and, for a ruling that changes a hand already
played (a lateness recorded hands later goes to hand 1), which hand it changes and how the current
levels move. Nothing is stored: the new ruling is replayed on top of the match's rulings in memory.
"""
from __future__ import annotations

from django.db.models import Q
from django.utils.translation import get_language, gettext, gettext_noop

from common import punctuation
from common.errors import UserError
from rulings.engine import normalise_side
from rulings.models import Approval, Ruling, RulingVoid
from rulings.presenters import ruling_text
from rulings.services import engine_call, offender_role_in, sanction_inputs, with_declarer
from tournament.competition import results
from tournament.models import Match, PairRemoval
from tournament.models.competition import describe_key
from tournament.records.adjustments import TableState, match_replay
from tournament.records.ledger import (
    IN_FORCE,
    PENDING,
    STATE_LABELS,
    VOID,
    Entry,
    match_rulings,
    replay_rulings,
    sanction_dict,
)

SIDE_NAMES = {"NS": gettext_noop("North-South"), "EW": gettext_noop("East-West")}


def preview_with_impact(match, code, side, *, minutes=None, cards=None, choice=None, role=None, seconds=None,
                        hand_number=None, declarer=None, waived_by=None):
    """(the sanction, the impact dict) of recording this offence now; nothing is stored. ``declarer``: the seat
    the referee gives while the table has none; a sanction that needs one is refused without it, as the record
    refuses it (``rulings.services``), so the console's 确认 stays disabled until it is given.

    The impact: ``hand_number`` (the hand the ruling goes to), ``hand_in_play``, ``earlier_hand``
    (True when that hand is already recorded), ``levels_before`` and ``levels_after`` (the current
    levels, before and after), ``winner_after`` and ``text`` (a sentence for the console, in the
    active language; empty when the ruling changes no recorded hand and no level).
    """
    inputs = sanction_inputs(code, side, minutes=minutes, cards=cards, choice=choice, role=role, seconds=seconds,
                             waived_by=waived_by)
    ledger, entries = replay_rulings(match, match_rulings(match, for_replay=True))
    sanction = engine_call(ledger.record, **inputs)
    before = match_replay(match, entries)
    state = with_declarer(TableState.of(before.state), declarer, sanction)   # the record's own check
    number = 1 if sanction.effect.applies_to == "first_hand" else (hand_number or state.hand_number)
    offender = normalise_side(inputs["side"])
    ruling = Ruling(match=match, hand_number=number, code=code, side=offender, role=inputs["role"] or "",
                    waived_by=sanction.waived_by or "",
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


# --- what a chief's act on a recorded ruling would do (nothing stored) --------------------------------

MATCH_ENDING = frozenset({"match_forfeit", "disqualification"})


def _simulated(rulings, target, name, row):
    """Cache ``row`` (an unsaved RulingVoid or Approval) on ``target`` among ``rulings`` as if it were stored: the
    ledger's replay then reads the ruling as void (or approved); the rows read are not used again."""
    for ruling in rulings:
        if ruling.pk == target.pk:
            getattr(Ruling, name).related.set_cached_value(ruling, row)
            return ruling
    raise UserError(gettext_noop("This ruling does not belong to this match."), field="ruling")


def _outcome(match, entries, hands=None):
    """(the replay, the verdict :func:`results.settle` would store) of ``match`` with these ruling entries."""
    done = match_replay(match, entries, hands)
    return done, results.expected(match, replay=done, entries=entries)


def _side_name(side):
    return gettext(SIDE_NAMES[side]) if side in SIDE_NAMES else ""


def _over(verdict):
    return verdict is not None and verdict.over


def approval_impact(ruling) -> dict:
    """What approving (核准) ``ruling`` would do, nothing stored: whether it ends the match, who loses, whether
    the offending pair leaves the event (a disqualification), and the sentence the pages ask the chief to
    confirm. ``ends_match`` False: the approval changes no result, the pages act without asking."""
    match = ruling.match
    rulings = match_rulings(match)
    _, before_entries = replay_rulings(match, rulings)
    before = next(e for e in before_entries if e.ruling.pk == ruling.pk)
    sanction = before.sanction
    kinds = set(sanction.kinds) if sanction is not None else set()
    if sanction is None or not sanction.needs_approval or not kinds & MATCH_ENDING:
        return {"ends_match": False, "disqualification": False, "loser": None, "winner_after": None, "text": ""}
    _simulated(rulings, ruling, "approval", Approval(ruling=ruling, approved=True))
    _, after_entries = replay_rulings(match, rulings)
    _, verdict = _outcome(match, after_entries)
    winner = verdict.winner if _over(verdict) else None
    disqualified = "disqualification" in kinds
    loser = _side_name(sanction.side)
    if disqualified:
        text = gettext("If approved, %(side)s is disqualified: it loses this match, the match ends, and it plays "
                       "no further match of the event.") % {"side": loser}
    elif _over(verdict) and winner is None:
        text = gettext("If approved, both sides lose this match: the match ends without a winner.")
    else:
        text = gettext("If approved, the match is lost: %(side)s loses and the match ends.") % {"side": loser}
    return {"ends_match": True, "disqualification": disqualified, "loser": sanction.side,
            "winner_after": winner, "text": text}


def void_impact(ruling) -> dict:
    """What voiding (撤销) ``ruling`` would change, nothing stored: the later rulings whose sanction the
    ledger counts again (000 第十六条（二）（四）: a 2nd warning that became a violation is a warning again, a
    3rd violation's match loss a violation), and the match's result (an approved forfeit undone: the match
    back in play, or its winner changed) and current levels.

    Returns ``{"changes": [{"ruling", "hand_number", "side", "before", "after", "state_before",
    "state_after"}], "levels_before", "levels_after", "result_before", "result_after", "reopens",
    "lifts_removal", "refused" (the winner's next match has begun: the void would be refused), "text":
    [sentences in the active language]}``; an empty ``text`` list: nothing else changes.
    """
    match = ruling.match
    rulings = match_rulings(match)
    _, before_entries = replay_rulings(match, rulings)
    if next(e for e in before_entries if e.ruling.pk == ruling.pk).state == VOID:
        raise UserError(gettext_noop("This ruling is already void."), field="ruling")
    before_done, before_verdict = _outcome(match, before_entries)
    _simulated(rulings, ruling, "void", RulingVoid(ruling=ruling))
    _, after_entries = replay_rulings(match, rulings)
    after_done, after_verdict = _outcome(match, after_entries, before_done.hands)
    changes, lines = [], []
    for old, new in zip(before_entries, after_entries):
        if old.ruling.pk == ruling.pk or old.ruling.sequence < ruling.sequence:
            continue
        was, now = _shown(old), _shown(new)
        if (was, old.state) == (now, new.state):
            continue
        changes.append({"ruling": old.ruling.pk, "hand_number": old.ruling.hand_number, "side": old.ruling.side,
                        "before": was, "after": now, "state_before": old.state, "state_after": new.state})
        lines.append(gettext("Hand %(hand)s, %(side)s: %(before)s → %(after)s") % {
            "hand": old.ruling.hand_number, "side": _side_name(old.ruling.side), "before": was, "after": now})
    result_before, result_after = _result(before_verdict), _result(after_verdict)
    reopens = _over(before_verdict) and not _over(after_verdict)
    if reopens:
        lines.append(gettext("The match's result is undone: the match is back in play."))
    elif result_before != result_after and _over(after_verdict):
        lines.append(gettext("The match's result changes: %(result)s.") % {"result": _result_text(after_verdict)})
    levels_before, levels_after = dict(before_done.state.levels), dict(after_done.state.levels)
    if levels_before != levels_after:
        lines.append(impact_text(0, False, levels_before, levels_after))
    begun = _begun_next(match) if result_before != result_after else None
    if begun is not None:
        lines.append(gettext("The winner's next match (%(match)s, table %(table)s) has begun: the result cannot "
                             "change, so the void will be refused.") % {
            "match": f"{begun.round} {describe_key(begun.bracket_key)}", "table": begun.table})
    lifted = _lifted_removals(before_entries, after_entries)
    if lifted:
        lines.append(gettext("A pair taken out of the event by these rulings plays on: %(names)s.") % {
            "names": punctuation.list_separator(get_language()).join(lifted)})
    return {"changes": changes, "levels_before": levels_before, "levels_after": levels_after,
            "result_before": result_before, "result_after": result_after, "reopens": reopens,
            "lifts_removal": bool(lifted), "refused": begun is not None, "text": lines}


def _shown(entry):
    """A ruling's sanction as the log reads it (its state when it no longer counts)."""
    if entry.sanction is None:
        return gettext(STATE_LABELS[entry.state])
    return ruling_text(entry.ruling, entry.sanction)


def _begun_next(match):
    """The knock-out match the winner went on to, when it has begun (a changed result would rewrite it:
    ``results.advance_bracket`` refuses); None outside a bracket or while it has not begun."""
    if not match.bracket_key:
        return None
    code = f"W:{match.bracket_key}"
    following = (Match.objects.filter(round__stage_id=match.round.stage_id)
                 .filter(Q(ns_source=code) | Q(ew_source=code)).select_related("round").first())
    if following is None or not (following.status in Match.PLAYED or following.started_at is not None):
        return None
    return following


def _result(verdict):
    return {"over": _over(verdict), "winner": verdict.winner if _over(verdict) else None}


def _result_text(verdict):
    if verdict.winner is None:
        return gettext("the match ends without a winner")
    return gettext("%(side)s wins") % {"side": _side_name(verdict.winner)}


def _lifted_removals(before_entries, after_entries):
    """The pairs a disqualification (or suspension) of these rulings took out of the event that would play on:
    the ruling no longer carries it once the ledger counts again (``rulings.pair_removals.lift_undone_removals``)."""
    carrying = {e.ruling.pk for e in after_entries if _removes(e)}
    undone = [e.ruling.pk for e in before_entries if _removes(e) and e.ruling.pk not in carrying]
    if not undone:
        return []
    rows = (PairRemoval.objects.filter(ruling_id__in=undone, restoration__isnull=True).select_related("pair"))
    return [str(row.pair) for row in rows if row.pair.status == row.kind]


def _removes(entry):
    return entry.state == IN_FORCE and entry.sanction is not None and "disqualification" in entry.sanction.kinds

"""Where a match stands, for the table page and the console (read only): over or not, the winner and how
it was decided, whether this user may still write, and the round's closure with its appeal deadline.

    match_lifecycle(match, user, *, top_winner=None) -> dict

``top_winner``: the side past the top level by the hands ("NS"/"EW"/None) when the caller replayed them.
The guidance lines (``tournament.desk.guidance``) come with it: where to appeal once the
round is closed, which offences wait for the chief, and that hands may be recorded before the clock starts.
"""
from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from common.names import display_name
from tournament import access
from tournament.clocks.records import clock_rule
from tournament.desk import guidance
from tournament.models import ClockEvent, HandAllowance, Match, ResultDecision
from tournament.records.closing import appeal_deadline_of
from tournament.records.notes import note_words

HOW = {
    "forfeit": gettext_noop("Forfeit (by a ruling)"),
    "walkover": gettext_noop("Walkover"),
    "bye": gettext_noop("Bye"),
    "decision": gettext_noop("Chief referee's decision"),
    "time": gettext_noop("Time is up: decided by level"),
    "hands": gettext_noop("Last allowed hand played: decided by level"),
    "top": gettext_noop("Decided by the hands"),
}


def _how(match, top_winner, decision):
    if match.status == Match.Status.FORFEIT:
        return "forfeit"
    if match.status == Match.Status.WALKOVER:
        return "walkover"
    if match.status == Match.Status.BYE:
        return "bye"
    if top_winner is not None:
        return "top"
    if decision is not None:
        return "decision"
    allowance = HandAllowance.objects.filter(match_id=match.pk).first()
    if allowance is not None:
        return "time" if allowance.reason == HandAllowance.Reason.TIME_UP else "hands"
    return "top"


def _clock_waits(rnd) -> bool:
    """The round has a time limit and its hall clock has not started."""
    if ClockEvent.objects.filter(round_id=rnd.pk, kind=ClockEvent.Kind.START).exists():
        return False
    try:
        clock_rule(rnd)
    except ValueError:       # these rules set no match length: no clock to wait for
        return False
    return True


def _next_match(match):
    """The knock-out match the winner goes on to (None outside a bracket)."""
    if not match.bracket_key:
        return None
    code = f"W:{match.bracket_key}"
    return (Match.objects.filter(round__stage_id=match.round.stage_id)
            .filter(Q(ns_source=code) | Q(ew_source=code)).select_related("round").first())


def match_lifecycle(match, user, *, top_winner=None) -> dict:
    """The banner and the rights of ``user`` at ``match`` (its round and event read with it)."""
    rnd = match.round
    event = rnd.stage.event
    chief = access.may(user, access.DECIDE_RESULT, match=match)
    over = match.is_over
    data = {"over": over, "chief": chief, "closed": rnd.results_published_at is not None, "match_id": match.pk,
            "may_appeal": access.may(user, access.FILE_APPEAL, match=match),
            "published_at": rnd.results_published_at, "appeal_deadline": None}
    if event.profile_id:   # from the close, or (000 第十九条（二）) from the table's end of play, open or closed
        data["appeal_deadline"] = appeal_deadline_of(match, event.profile, published_at=rnd.results_published_at)
        if data["closed"]:
            data["appeal_guidance"] = guidance.appeal_line(event.profile, data["appeal_deadline"])
    data["approval_guidance"] = guidance.approval_line(match.profile) if match.profile_id else ""
    data["clock_guidance"] = _(guidance.CLOCK_NOT_STARTED)
    data["clock_not_started"] = not over and not data["closed"] and _clock_waits(rnd)
    if not over:
        return {**data, "form_allowed": True}
    decision = None
    if match.status == Match.Status.FINISHED:
        decision = ResultDecision.objects.filter(match_id=match.pk).select_related("decided_by").order_by(
            "-decided_at", "-id").first()
    how = _how(match, top_winner, decision)
    side = {match.ns_id: "NS", match.ew_id: "EW"}.get(match.winner_id) if match.winner_id else None
    following = _next_match(match)
    begun = bool(following and (following.status in Match.PLAYED or following.started_at))
    return {
        **data,
        "form_allowed": chief,            # a finished match is corrected by a chief referee only
        "winner": str(match.winner) if match.winner_id else "", "winner_side": side,
        "winner_side_label": {"NS": _("North–South"), "EW": _("East–West")}.get(side, ""),
        "how": how, "how_label": _(HOW[how]), "note": note_words(match.result_note),
        "decision": ({"by": display_name(decision.decided_by), "at": decision.decided_at, "reason": decision.reason}
                     if decision is not None else None),
        "next_match": str(following) if following is not None else "",
        "next_begun": begun,
        "correction_warning": _warning(str(match.winner) if match.winner_id else "", following, begun),
    }


def _warning(winner, following, begun):
    """What a chief's correction of a finished match may change, in one sentence."""
    if following is None:
        if winner:
            return _("A correction may change the winner (now %(who)s).") % {"who": winner}
        return _("A correction may change the result.")
    if begun:
        return _("A correction may change the winner (now %(who)s); the next match, %(next)s, has already begun, "
                 "so a change of winner will be refused.") % {"who": winner, "next": following}
    return _("A correction may change the winner (now %(who)s) and who plays in the next match, %(next)s.") % {
        "who": winner, "next": following}

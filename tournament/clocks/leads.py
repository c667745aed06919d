"""The table's answer to "was the first lead of the hand in play made?" (000 第十五条 已开始出牌), which the
clock reads when the announcement reaches the table (:func:`tournament.clocks.tables.fire_table`).

    lead_made(match, hand_number) -> bool        the latest report for that hand; True without one
    report_lead(match, user, *, hand_number, made) -> LeadReport
    lead_status(match) -> dict                   the hand in play, what was reported, whether the announcement asks
"""
from __future__ import annotations

from django.db import transaction

from common.errors import ForbiddenError, UserError, gettext_noop
from infra import clock
from tournament import access
from tournament.clocks.records import hands_recorded
from tournament.competition import display_cache
from tournament.models import HandAllowance, LeadReport
from tournament.records.closing import refuse_if_round_closed


def _latest(match, hand_number):
    return LeadReport.objects.filter(match=match, hand_number=hand_number).order_by("-reported_at", "-pk").first()


def lead_made(match, hand_number) -> bool:
    """Was the first lead of ``hand_number`` made? Without a report: yes (the hand after the last recorded
    one is taken as in play, as before the question was asked)."""
    report = _latest(match, hand_number)
    return True if report is None else report.lead_made


def lead_status(match) -> dict:
    """{"hand_number": the hand in play, "made": bool, "reported": whether the referee said so, "asked": the
    announcement reached the table with this hand in play and the answer decides whether it counts, "over":
    the match is over, so no hand is in play and nothing is asked}.

    The answer given after the announcement, while that hand is still in play, is the one taken (000 第十五条;
    ``tournament.competition.allowances.in_force``)."""
    number = hands_recorded(match) + 1
    report = _latest(match, number)
    asked = HandAllowance.objects.filter(match_id=match.pk, reason=HandAllowance.Reason.ANNOUNCE,
                                         hand_in_play=number, in_play_by_rule=False).exists()
    over = match.is_over
    return {"hand_number": number, "made": True if report is None else report.lead_made,
            "reported": report is not None, "asked": asked and not over, "over": over}


def report_lead(match, user, *, hand_number, made) -> LeadReport:
    """The table's referee says whether the first lead of the hand in play was made."""
    if not access.may(user, access.RECORD, match=match):
        refuse_if_round_closed(user, match)   # the table's own referee after the round closed: a 409 saying so
        raise ForbiddenError(gettext_noop("Only this table's referees and the chief referees may report this."),
                             error_code="not_assigned")
    if match.is_over:
        raise UserError(gettext_noop("The match is over: no hand is in play."), field="hand_number")
    in_play = hands_recorded(match) + 1
    if hand_number != in_play:
        raise UserError(gettext_noop("The hand in play is hand %(expected)s, not hand %(number)s."),
                        field="hand_number", expected=in_play, number=hand_number)
    report = LeadReport.objects.create(match=match, hand_number=hand_number, lead_made=bool(made), reported_by=user,
                                       reported_at=clock.now())
    round_id = match.round_id   # the answer moves the table's last hand once announced: the displays show it
    transaction.on_commit(lambda: display_cache.invalidate(round_id))
    return report

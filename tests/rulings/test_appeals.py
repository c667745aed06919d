"""Appeals: the profile's deadline, shenzhen's route (chief referee, then the organising committee), recusal,
reversal. Every profile's route: test_appeal_routes.py."""
import pytest

from common.errors import ForbiddenError
from rulings import appeals as appeals_
from rulings import services
from tournament.models import Match
from tournament.records import adjustments as adjustments_
from tournament.records import ledger as ledger_


@pytest.fixture
def penalty(table, frozen_now):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "failed_throw", "NS", cards=2, role="declarers")
    return match, users, ruling


def publish(match, at):
    match.round.results_published_at = at
    match.round.save()


def test_appeals_close_ten_minutes_after_the_results_are_published(penalty, frozen_now):
    match, users, ruling = penalty
    publish(match, frozen_now.at)
    frozen_now.advance(minutes=10)
    appeals_.file_appeal(ruling, users["chief"], "NS", "不是甩牌")
    frozen_now.advance(seconds=1)
    with pytest.raises(services.RulingError, match="申诉期限已过"):
        appeals_.file_appeal(ruling, users["chief"], "EW")


def test_appeals_are_open_while_the_results_are_not_published(penalty, frozen_now):
    match, users, ruling = penalty
    frozen_now.advance(hours=5)
    assert appeals_.appeal_deadline_for(ruling) is None
    appeals_.file_appeal(ruling, users["referee"], "NS")


def test_one_appeal_per_side_and_none_against_a_void_ruling(penalty):
    match, users, ruling = penalty
    appeals_.file_appeal(ruling, users["chief"], "NS")
    with pytest.raises(services.Conflict):
        appeals_.file_appeal(ruling, users["chief"], "NS")
    services.void_ruling(ruling, users["chief2"])  # under appeal: a chief referee voids it
    with pytest.raises(services.RulingError):
        appeals_.file_appeal(ruling, users["chief"], "EW")


def test_a_reversal_by_the_chief_referee_takes_the_points_out_of_the_scores(penalty):
    match, users, ruling = penalty
    assert adjustments_.hand_adjustments(match)[1]["penalty_points"] == 20
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS")
    appeals_.decide_appeal(appeal, users["chief"], instance=1, outcome="reversed", reason="判罚有误")
    assert ledger_.match_entries(match)[0].state == ledger_.REVERSED
    assert adjustments_.hand_adjustments(match) == {}


def test_the_organising_committee_decides_second_and_its_decision_stands(penalty, make_user):
    match, users, ruling = penalty
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS")
    with pytest.raises(services.RulingError):  # instance 2 before instance 1
        appeals_.decide_appeal(appeal, users["organiser"], instance=2, outcome="reversed")
    appeals_.decide_appeal(appeal, users["chief"], instance=1, outcome="upheld")
    assert ledger_.match_entries(match)[0].state == ledger_.IN_FORCE
    appeals_.decide_appeal(appeal, users["organiser"], instance=2, outcome="reversed")
    assert ledger_.match_entries(match)[0].state == ledger_.REVERSED
    with pytest.raises(services.RulingError):
        appeals_.decide_appeal(appeal, make_user("organiser"), instance=2, outcome="upheld")


@pytest.mark.parametrize("role, instance", [("chief", 2), ("arbiter", 2), ("arbiter", 1), ("referee", 1),
                                            ("organiser", 1)])
def test_each_instance_belongs_to_its_body(penalty, role, instance):
    match, users, ruling = penalty
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS")
    if instance == 2:
        appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="upheld")
    with pytest.raises(ForbiddenError):
        appeals_.decide_appeal(appeal, users[role], instance=instance, outcome="reversed")


def test_an_arbiter_involved_in_the_first_ruling_may_not_sit(table, make_match, make_user):
    users = table[1]
    match = make_match("two-deck-standard")  # chief referee, then the arbitration group
    match.referees.add(users["referee"])
    arbiter_referee = make_user("arbitration")
    arbiter_referee.groups.add(*users["chief"].groups.all())  # also serves as a chief referee
    ruling = services.record_ruling(match, arbiter_referee, "exposed_card", "NS")
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS")
    appeals_.decide_appeal(appeal, users["chief"], instance=1, outcome="upheld")
    with pytest.raises(ForbiddenError, match="回避"):
        appeals_.decide_appeal(appeal, arbiter_referee, instance=2, outcome="reversed")
    appeals_.decide_appeal(appeal, users["arbiter"], instance=2, outcome="reversed")


def test_reversing_an_approved_forfeit_reopens_the_match(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "cheating", "EW")
    services.approve(ruling, users["chief"])
    match.refresh_from_db()
    assert match.status == Match.Status.FORFEIT
    appeal = appeals_.file_appeal(ruling, users["chief2"], "EW", "裁判长宣布开始时间有误")
    appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="reversed")
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.SCHEDULED, None)

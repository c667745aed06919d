"""Issue 28 item 5: the union and company appeals set no time limit (the organiser choice appeal_deadline).

003 二.5 and 004 九.6 (2008: 九.5) name who decides an appeal and that the decision is final, but no time
limit: by default an appeal is accepted at any time after the round closes; a limit of 10 minutes after the
round's results is the organiser's other reading. Shenzhen keeps its written limit (第十九条（二）).
"""
import pytest

from rulings import appeals as appeals_
from rulings import services
from rulings.closing import closed_round_text
from rulings.ledger import ledger_for
from scoring.profiles import load_profile
from tournament.events import rule_choices

NO_LIMIT_PROFILES = ("union-games", "company-league", "company-league-2008")


def _ruling(make_match, make_user, slug):
    match = make_match(slug)
    referee, chief = make_user("table_referee"), make_user("chief_referee")
    match.referees.add(referee)
    ruling = services.record_ruling(match, referee, "failed_throw", "NS", cards=2, role="declarers")
    return match, chief, ruling


def _close(match, at):
    match.round.results_published_at = at
    match.round.save()


@pytest.mark.parametrize("slug", NO_LIMIT_PROFILES)
def test_no_time_limit_by_default(slug):
    """003 二.5 / 004 九.6 / 2008 九.5 (申诉的受理与裁决，时限原文未规定): the default reading sets none."""
    assert ledger_for(load_profile(slug)).appeal.deadline_minutes is None
    assert ledger_for(load_profile(slug, {"appeal_deadline": "ten_minutes"})).appeal.deadline_minutes == 10


@pytest.mark.django_db
@pytest.mark.parametrize("slug", NO_LIMIT_PROFILES)
def test_an_appeal_eleven_minutes_after_the_close_is_accepted(make_match, make_user, frozen_now, slug):
    """003 二.5 sets no time limit: an appeal 11 minutes (and a day) after the round closed is filed."""
    match, chief, ruling = _ruling(make_match, make_user, slug)
    _close(match, frozen_now.at)
    frozen_now.advance(minutes=11)
    assert appeals_.appeal_deadline_for(ruling) is None
    appeals_.file_appeal(ruling, chief, "NS", "不是甩牌")
    frozen_now.advance(hours=24)
    appeals_.file_appeal(ruling, chief, "EW")
    assert "no time limit" in closed_round_text(match)[0]


@pytest.mark.django_db
def test_the_organisers_ten_minute_limit_refuses_a_late_appeal(make_match, make_user, frozen_now):
    """The other reading of appeal_deadline (003 二.5 silent): 10 minutes after the round's results."""
    match = make_match("union-games")
    referee, chief = make_user("table_referee"), make_user("chief_referee")
    match.referees.add(referee)
    event = rule_choices.set_choices(match.round.stage.event, make_user("organiser"), {"appeal_deadline": "ten_minutes"})
    match.refresh_from_db()
    assert match.profile == event.profile
    ruling = services.record_ruling(match, referee, "failed_throw", "NS", cards=2, role="declarers")
    _close(match, frozen_now.at)
    frozen_now.advance(minutes=10)
    appeals_.file_appeal(ruling, chief, "NS")
    frozen_now.advance(minutes=1)
    with pytest.raises(services.RulingError, match="申诉期限已过"):
        appeals_.file_appeal(ruling, chief, "EW")

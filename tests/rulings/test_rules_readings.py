"""Issue 28 items 5 and 6: when an appeal is still accepted.

Item 5: the union and company appeals set no time limit (the organiser choice appeal_deadline).

003 二.5 and 004 九.6 (2008: 九.5) name who decides an appeal and that the decision is final, but no time
limit: by default an appeal is accepted at any time after the round closes; a limit of 10 minutes after the
round's results is the organiser's other reading. Shenzhen keeps its written limit (第十九条（二）).

Item 6: shenzhen's ten minutes count from the table's end of play (its last hand or result), not from the
chief's close, and a reopened round does not reset them.
"""
import datetime as dt

import pytest
from django.utils import timezone

from rulings import appeals as appeals_
from rulings import services
from scoring import services as scoring_services
from scoring.profiles import load_profile
from tournament.competition import results, rounds
from tournament.desk import lifecycle
from tournament.events import rule_choices
from tournament.records import closing
from tournament.records.closing import closed_round_text
from tournament.records.ledger import ledger_for

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


# --- item 6: shenzhen 第十九条（二） counts from the table's end of play ------------------------------------

def _at(frozen_now, hh, mm):
    """Move the frozen clock to hh:mm of its day (UTC)."""
    now = frozen_now.at
    frozen_now.advance(seconds=(now.replace(hour=hh, minute=mm, second=0) - now).total_seconds())
    return frozen_now.at


@pytest.mark.django_db
def test_shenzhen_deadline_counts_from_the_tables_end_of_play_not_the_close(make_match, make_user, frozen_now):
    """000 第十九条（二）"对裁判员的裁决及其相关事宜的申诉，须在该轮比赛结束后10分钟内的有效时限向裁判长提出":
    play ends 11:40, the chief closes at 12:00 → the deadline is 11:50, not 12:10; a reopen does not reset it."""
    match, chief, ruling = _ruling(make_match, make_user, "shenzhen-community")
    organiser = make_user("organiser")
    _at(frozen_now, 11, 30)
    scoring_services.record_hand(match, chief, number=1, trump="S", defender_points=60, declarer="N")
    end = _at(frozen_now, 11, 40)
    results.decide_match(match, chief, winner="NS", kind="decided", reason="时间到，庄家方领先")
    match.refresh_from_db()
    assert closing.end_of_play(match) == end                          # the result, after the last hand
    deadline = end + dt.timedelta(minutes=10)
    assert appeals_.appeal_deadline_for(ruling) == deadline          # runs before the round is closed
    _at(frozen_now, 11, 45)
    appeals_.file_appeal(ruling, chief, "NS", "不是甩牌")
    _at(frozen_now, 11, 51)
    with pytest.raises(services.RulingError, match="申诉期限已过"):
        appeals_.file_appeal(ruling, chief, "EW")
    _at(frozen_now, 12, 0)
    rounds.close_round(match.round, organiser)
    match.refresh_from_db()
    assert appeals_.appeal_deadline_for(ruling) == deadline
    assert closed_round_text(match)[1]["deadline"] == f"{timezone.localtime(deadline):%H:%M}"
    assert "passed" in closed_round_text(match)[0]
    life = lifecycle.match_lifecycle(match, chief)
    assert life["appeal_deadline"] == deadline
    _at(frozen_now, 12, 5)
    rounds.reopen_round(match.round, chief, "更正记分")
    assert appeals_.appeal_deadline_for(ruling) == deadline          # a reopen does not remove the limit
    with pytest.raises(services.RulingError, match="申诉期限已过"):
        appeals_.file_appeal(ruling, chief, "EW")
    _at(frozen_now, 12, 10)
    rounds.close_round(match.round, organiser)
    assert appeals_.appeal_deadline_for(ruling) == deadline          # nor does closing again


@pytest.mark.django_db
def test_shenzhen_a_table_still_playing_has_no_deadline_yet(make_match, make_user, frozen_now):
    """000 第十九条（二） 该轮比赛结束后: while the table plays on, its rulings may be appealed."""
    match, chief, ruling = _ruling(make_match, make_user, "shenzhen-community")
    frozen_now.advance(hours=3)
    assert appeals_.appeal_deadline_for(ruling) is None
    appeals_.file_appeal(ruling, chief, "NS")


@pytest.mark.django_db
def test_union_deadline_still_counts_from_the_close(make_match, make_user, frozen_now):
    """003 二.5 (organiser's ten-minute reading) and the two-deck default count from the round's results."""
    match = make_match("two-deck-standard")
    chief = make_user("chief_referee")
    match.referees.add(chief)
    ruling = services.record_ruling(match, chief, "failed_throw", "NS")
    assert appeals_.appeal_deadline_for(ruling) is None
    _close(match, frozen_now.at)
    assert appeals_.appeal_deadline_for(ruling) == frozen_now.at + dt.timedelta(minutes=10)


def test_two_deck_appeal_deadline_both_readings():
    """002 writes no appeal: 10 minutes after the round's results (the project's default) or no limit."""
    assert ledger_for(load_profile("two-deck-standard")).appeal.deadline_minutes == 10
    assert ledger_for(load_profile("two-deck-standard", {"appeal_deadline": "no_limit"})).appeal.deadline_minutes is None

"""Round times and referees in bulk (issue 11): the same referee at a table for every round, the grid, and
a finished match refused; assignment only to the event's own referees."""
import pytest

from common.errors import UserError
from tests.tournament.test_draws_support import finish, make_event
from tournament.competition import draws, referees, timetable
from tournament.competition.stages import create_stages_from_format
from tournament.models import EventRole, Match


@pytest.fixture
def drawn(db, make_user):
    event = make_event(8, 4, slug="tt")
    stage = create_stages_from_format(event)[0]
    draws.draw_groups(stage, seed="tt")
    referee = make_user()
    EventRole.objects.create(event=event, user=referee, role="table_referee")
    return event, stage, referee


def test_same_referee_at_a_table_for_every_round(drawn):
    event, stage, referee = drawn
    done, refused = timetable.same_table_every_round(stage, 1, referee)
    rounds = stage.rounds.count()
    assert done == rounds and not refused
    assert Match.objects.filter(round__stage=stage, table=1, referees=referee).count() == rounds


def test_a_finished_match_keeps_its_referees(drawn):
    _event, stage, referee = drawn
    match = Match.objects.filter(round__stage=stage, table=1).order_by("round__number").first()
    finish(match)
    with pytest.raises(UserError) as caught:
        referees.assign_referee(match, referee)
    assert caught.value.field == "match"
    changed, refused = timetable.apply_grid(stage, {match.pk: referee.pk})
    assert changed == 0 and len(refused) == 1
    done, _refused = timetable.same_table_every_round(stage, 1, referee)
    assert done == stage.rounds.count() - 1 and not match.referees.exists()


def test_a_referee_of_another_event_cannot_be_assigned(drawn, make_user):
    _event, stage, _referee = drawn
    other = make_event(4, 2, slug="tt-other")
    stranger = make_user()
    EventRole.objects.create(event=other, user=stranger, role="chief_referee")
    match = Match.objects.filter(round__stage=stage).first()
    with pytest.raises(UserError) as caught:
        referees.assign_referee(match, stranger)
    assert caught.value.field == "referee"


def test_round_start_parsing(drawn):
    _event, stage, _referee = drawn
    rnd = stage.rounds.first()
    timetable.set_round_start(rnd, timetable.parse_start("2026-12-05T09:30"))
    rnd.refresh_from_db()
    assert rnd.scheduled_start is not None
    with pytest.raises(UserError):
        timetable.parse_start("明天上午")

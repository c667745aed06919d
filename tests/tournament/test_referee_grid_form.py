"""The organiser's referee grid validates through a Form (issue 33): a time that is no time or a referee who
is not the event's is refused with where it is, and nothing of that post is saved; a good post saves the
starts and the cells; one table's referee for every round in one step."""
import pytest
from django.urls import reverse

from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.competition import draws, stages
from tournament.competition.forms import GridStageForm
from tournament.models import Event, Match, Stage
from tournament.staff.services import add_staff


@pytest.fixture
def grid(db, make_user):
    event = make_event(8, 4, profile="union-games", fmt=Event.Format.GROUPS_ELIMINATION)
    stage = stages.create_stage(event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed="grid")
    referee = add_staff(event, roles.TABLE_REFEREE, username="ref-grid", display="王裁判")[0].user
    return event, stage, referee, make_user(roles.ORGANISER), make_user()


def post(client, event, stage, data):
    answer = client.post(reverse("competition_referee_grid", args=[event.slug]), {"stage": stage.pk, **data},
                         follow=True)
    assert answer.redirect_chain[0][1] == 302
    return [str(m) for m in answer.context["messages"]]


def test_a_bad_field_is_refused_where_it_is_and_nothing_is_saved(client, grid):
    event, stage, referee, organiser, stranger = grid
    client.force_login(organiser)
    first = stage.rounds.order_by("number").first()
    match = Match.objects.filter(round=first).order_by("table").first()
    said = post(client, event, stage, {f"start_{first.pk}": "明天上午", f"cell_{match.pk}": referee.pk})
    assert said == [f"{first}：请输入时间，例如 2026-12-05 09:30。"]
    assert not match.referees.exists()                      # the good cell waits for a good form
    said = post(client, event, stage, {f"cell_{match.pk}": stranger.pk})   # not this event's referee
    assert len(said) == 1 and "选择" in said[0] and not match.referees.exists()
    said = post(client, event, stage, {f"start_{first.pk}": "2026-12-05T09:30", f"cell_{match.pk}": referee.pk})
    first.refresh_from_db()
    assert said == ["已保存：1 处有变动。"] and list(match.referees.all()) == [referee]
    assert first.scheduled_start is not None and first.scheduled_start.hour in (1, 9)


def test_one_table_for_every_round_needs_its_referee(client, grid):
    event, stage, referee, organiser, _stranger = grid
    client.force_login(organiser)
    assert post(client, event, stage, {"whole_row": "1", "row_1": ""}) == ["第1桌：请先为这张桌选择裁判。"]
    said = post(client, event, stage, {"whole_row": "1", "row_1": referee.pk})
    rounds = stage.rounds.count()
    assert said == [f"王裁判 担任第 1 桌裁判，共 {rounds} 轮。"]
    assert all(list(m.referees.all()) == [referee] for m in Match.objects.filter(round__stage=stage, table=1))


def test_a_post_for_a_stage_not_the_events_saves_nothing(client, grid):
    """Issue 33: the grid's stage reads through a Form; a post naming no stage of the event's is refused (it
    was put on the first stage), a page asking for one shows the first."""
    event, stage, referee, organiser, _stranger = grid
    client.force_login(organiser)
    match = Match.objects.filter(round__stage=stage).order_by("table").first()
    other = stages.create_stage(make_event(4, 2), Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    url = reverse("competition_referee_grid", args=[event.slug])
    for pk in (other.pk, 10**6, "abc", ""):
        answer = client.post(url, {"stage": pk, "whole_row": "1", "row_1": referee.pk, f"cell_{match.pk}": referee.pk},
                             follow=True)
        assert [str(m) for m in answer.context["messages"]] == [GridStageForm.base_fields["stage"].error_messages[
            "invalid_choice"]] and not match.referees.exists(), pk
    assert client.get(url, {"stage": other.pk}).context["stage"] == stage


def test_a_start_on_no_such_day_is_refused_where_it_is(client, grid):
    event, stage, referee, organiser, _stranger = grid
    client.force_login(organiser)
    first = stage.rounds.order_by("number").first()
    said = post(client, event, stage, {f"start_{first.pk}": "2026-02-30T09:30"})
    assert said == [f"{first}：请输入时间，例如 2026-12-05 09:30。"]
    first.refresh_from_db()
    assert first.scheduled_start is None

"""Floor referees cover blocks of tables: the grid's block step through its service and its page. A table
where the referee's own unit plays goes to another referee of the step or is left (and said so); a bad
range is refused next to its field and nothing is saved; a 2,048-table round takes 200 floor referees in a
handful of queries."""
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from common.errors import UserError
from tests.tournament.floor_support import floor_event, floor_referees
from tournament import roles
from tournament.competition import blocks
from tournament.models import Match, RefereeUnit


def _referees_of(rnd, table):
    return set(Match.objects.get(round=rnd, table=table).referees.values_list("pk", flat=True))


def _links():
    return Match.referees.through.objects.count()


@pytest.fixture
def small(db):
    event, stage, (rnd,) = floor_event(12, units=8)   # table t: units 2(t-1)%8, (2t-1)%8: unit 0 at 1, 5, 9
    refs = floor_referees(event, 4)                   # ref i of unit i % 4
    return event, stage, rnd, refs


def test_one_referee_a_block_and_their_own_units_tables_are_left(small):
    event, stage, rnd, refs = small
    other = refs[2]
    Match.objects.get(round=rnd, table=5).referees.add(other)            # table 5 keeps its referee
    outcome = blocks.assign_blocks(stage, rounds=[rnd], blocks=blocks.split(1, 8, [refs[0]]))   # unit 0
    assert [(h.table, h.to) for h in outcome.handed] == [(1, None), (5, None)]
    assert outcome.assigned == 6 and not outcome.moved
    assert all(_referees_of(rnd, t) == {refs[0].pk} for t in (2, 3, 4, 6, 7, 8))
    assert _referees_of(rnd, 1) == set() and _referees_of(rnd, 5) == {other.pk}
    again = blocks.assign_blocks(stage, rounds=[rnd], blocks=blocks.split(1, 8, [refs[0]]))
    assert again.assigned == 0 and again.unchanged == 6                   # nothing moves twice


def test_several_referees_share_a_range_and_hand_their_own_tables_over(small):
    event, stage, rnd, refs = small
    outcome = blocks.assign_blocks(stage, rounds=[rnd], blocks=blocks.split(1, 12, [refs[0], refs[2]]))
    # refs[0] (unit 0) holds 1-6, refs[2] (unit 2) holds 7-12; table 1 and 5 are unit 0's, table 10 unit 2's
    assert [(h.table, h.referee, h.to) for h in outcome.handed] == [
        (1, refs[0], refs[2]), (5, refs[0], refs[2]), (10, refs[2], refs[0])]
    assert _referees_of(rnd, 1) == {refs[2].pk} and _referees_of(rnd, 10) == {refs[0].pk}
    assert outcome.assigned == 12 and not outcome.left


def test_a_block_replaces_the_tables_referee_and_leaves_a_finished_table(small):
    event, stage, rnd, refs = small
    blocks.assign_blocks(stage, rounds=[rnd], blocks=[blocks.Block(refs[1], 2, 4)])
    Match.objects.filter(round=rnd, table=4).update(status=Match.Status.FINISHED)
    outcome = blocks.assign_blocks(stage, rounds=[rnd], blocks=[blocks.Block(refs[3], 2, 4)])  # unit 3: table 2
    assert outcome.finished == 1 and [h.table for h in outcome.left] == [2]
    assert _referees_of(rnd, 3) == {refs[3].pk} and _referees_of(rnd, 4) == {refs[1].pk}
    assert _referees_of(rnd, 2) == {refs[1].pk}


@pytest.mark.parametrize("first, last, field, words", [
    (5, 3, "last", "The last table (3) comes before the first (5)."),
    (0, 3, "first", "Table 0 is not one of the round's: its tables are 1–12."),
    (3, 13, "last", "Table 13 is not one of the round's: its tables are 1–12."),
])
def test_a_bad_range_is_refused_on_its_field_and_saves_nothing(small, first, last, field, words):
    event, stage, rnd, refs = small
    good = blocks.Block(refs[1], 1, 4)
    with pytest.raises(UserError) as caught:
        blocks.assign_blocks(stage, rounds=[rnd], blocks=[good, blocks.Block(refs[2], first, last)])
    assert caught.value.field == field and caught.value.message % caught.value.params == words
    assert _links() == 0


def test_every_round_of_a_stage_in_one_step(db):
    event, stage, made = floor_event(6, units=8, rounds=3)
    [ref] = floor_referees(event, 1)
    outcome = blocks.assign_blocks(stage, rounds=made, blocks=[blocks.Block(ref, 2, 4)])  # unit 0: table 1, 5
    assert outcome.assigned == 9 and _links() == 9
    coverage = blocks.coverage(made)
    assert [(rnd.number, people) for rnd, people in coverage] == [(n, [("裁判0号", ["2–4"])]) for n in (1, 2, 3)]


def test_split_and_runs():
    assert [(b.referee, b.first, b.last) for b in blocks.split(1, 10, "abc")] == [("a", 1, 4), ("b", 5, 7),
                                                                                 ("c", 8, 10)]
    assert [(b.referee, b.first) for b in blocks.split(1, 2, "abc")] == [("a", 1), ("b", 2)]
    assert blocks.runs([9, 1, 2, 3, 7, 10]) == ["1–3", "7", "9–10"]


def test_a_2048_table_round_takes_200_floor_referees_in_a_handful_of_queries(db):
    event, stage, (rnd,) = floor_event(2048, units=16)
    refs = floor_referees(event, 200)
    plan = blocks.split(1, 2048, refs)
    with CaptureQueriesContext(connection) as queries:
        outcome = blocks.assign_blocks(stage, rounds=[rnd], blocks=plan)
    assert len(queries) <= 14, [q["sql"][:120] for q in queries]
    assert outcome.assigned == 2048 and not outcome.left and len(outcome.moved) > 100
    assert _links() == 2048
    units = dict(RefereeUnit.objects.filter(event=event).values_list("user_id", "unit_id"))
    clash = [link for link in Match.referees.through.objects.values_list("user_id", "match__ns__unit_id",
                                                                         "match__ew__unit_id")
             if units[link[0]] in link[1:]]
    assert clash == []
    with CaptureQueriesContext(connection) as again:              # the same step again: nothing written
        assert blocks.assign_blocks(stage, rounds=[rnd], blocks=plan).unchanged == 2048
    assert len(again) <= len(queries)


# --- the page -------------------------------------------------------------------------------------------------

def _page(event):
    return reverse("competition_referee_blocks", args=[event.slug])


def test_the_page_assigns_a_block_and_says_which_own_unit_tables_wait(client, small, make_user):
    event, stage, rnd, refs = small
    client.force_login(make_user(roles.ORGANISER))
    answer = client.get(_page(event))
    assert answer.status_code == 200 and "按桌号区块分配裁判" in answer.content.decode()
    answer = client.post(_page(event), {"stage": stage.pk, "round": rnd.pk, "first": "1", "last": "8",
                                        "referees": [refs[0].pk]}, follow=True)
    said = [str(m) for m in answer.context["messages"]]
    assert said[0] == "已保存：6 张桌已指派裁判，0 张本来就是该裁判。"
    assert said[1:] == ["第1轮第1、5桌：裁判0号 所在单位在此参赛，未指派给其本人，请另派裁判。"]
    assert '<option value="%s">裁判0号</option>' % refs[0].pk in answer.content.decode()
    assert "裁判0号：2–4、6–8" in answer.content.decode()
    assert _referees_of(rnd, 2) == {refs[0].pk}


@pytest.mark.parametrize("data, field, words", [
    ({"first": "8", "last": "3"}, "last", "结束桌号（3）小于起始桌号（8）。"),
    ({"first": "3", "last": "99"}, "last", "第99桌不是本轮的桌：本轮的桌号为 1–12。"),
    ({"first": "三", "last": "9"}, "first", "请输入桌号：1 到 32767 的整数。"),
    ({"first": "1", "last": "9", "referees": []}, "referees", "请至少选择一名裁判。"),
])
def test_the_page_refuses_a_bad_range_next_to_its_field(client, small, make_user, data, field, words):
    event, stage, rnd, refs = small
    client.force_login(make_user(roles.ORGANISER))
    answer = client.post(_page(event), {"stage": stage.pk, "round": rnd.pk, "referees": [refs[1].pk], **data})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert f'data-field-error="{field}">{words}</p>' in html, re.findall(r"data-field-error=[^<]*", html)
    assert _links() == 0


def test_the_page_says_who_takes_the_tables_handed_over_round_by_round(client, db, make_user):
    event, stage, made = floor_event(12, units=8, rounds=2)
    refs = floor_referees(event, 3)
    client.force_login(make_user(roles.ORGANISER))
    answer = client.post(_page(event), {"stage": stage.pk, "first": "1", "last": "12",
                                        "referees": [refs[0].pk, refs[2].pk]}, follow=True)
    said = [str(m) for m in answer.context["messages"]]
    assert said == ["已保存：24 张桌已指派裁判，0 张本来就是该裁判。",
                    "第1轮第1、5桌；第2轮第1、5桌：裁判0号 所在单位在此参赛，改由 裁判2号 执裁。",
                    "第1轮第10桌；第2轮第10桌：裁判2号 所在单位在此参赛，改由 裁判0号 执裁。"]


def test_the_page_is_the_organisers(client, small, make_user):
    event, stage, rnd, refs = small
    client.force_login(make_user(roles.CHIEF_REFEREE))
    answer = client.post(_page(event), {"stage": stage.pk, "first": "1", "last": "2", "referees": [refs[1].pk]})
    assert answer.status_code == 403 and _links() == 0

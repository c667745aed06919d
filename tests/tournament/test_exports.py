"""Exports (issue 16): standings, crosstables and the penalty log as .xlsx, linked from their pages, with the
pages' columns, Chinese headers and numbers as numbers; each workbook is read back with openpyxl and compared
with the figures the pages show (the same services)."""
import datetime as dt
import io

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from openpyxl import load_workbook

from rulings import public_log
from rulings.presenters import event_log
from rulings.services import record_ruling
from tests.tournament.test_draws_support import finish, make_event
from tournament import roles
from tournament.competition import draws, group_standings, placings, swiss_rounds, swiss_standings
from tournament.competition.stages import create_stages_from_format
from tournament.models import Match, Pair


@pytest.fixture
def played(db, make_user):
    """Two groups of four, round 1 played (one match won by East–West), a ruling with a referee's note."""
    event = make_event(8, 4, seeds=2, slug="exports")
    Pair.objects.filter(event=event, name="第05对").update(name="=SUM(1,2)")  # a name that looks like a formula
    stage = create_stages_from_format(event)[0]
    draws.draw_groups(stage, seed="exports")
    first, second, third, fourth = Match.objects.filter(round__stage=stage, round__number=1).order_by("table")
    finish(first, "ns", "A", "5")
    finish(second, "ew", "K", "9")
    finish(third, "ns", "J", "J")
    chief = make_user(roles.CHIEF_REFEREE)
    record_ruling(fourth, chief, "late", "NS", minutes=3, hand_number=1, note="迟到3分钟，已警告")
    return event, stage, chief


def workbook(response):
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    assert "attachment" in response["Content-Disposition"]
    return load_workbook(io.BytesIO(response.content))


def values(sheet):
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def blank(value):
    return "" if value is None else value


def test_standings_export_holds_the_group_tables_and_final_ranking_figures(client, played):
    event, _stage, _chief = played
    page = client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    url = reverse("competition_standings_xlsx", args=[event.slug])
    assert url in page and url in client.get(reverse("competition_standings", args=[event.slug])).content.decode()
    book = workbook(client.get(url))
    places, complete = placings.final_ranking(event)
    final = book.worksheets[0]
    assert final.title == ("最终排名" if complete else "最终排名（暂定）")
    rows = values(final)
    assert rows[0] == ["名次", "并列", "参赛对", "单位", "决出方式", "取消资格"]
    assert [[r[0], blank(r[2]), blank(r[3])] for r in rows[1:]] == [[p.place, p.entry.name, p.entry.unit]
                                                                      for p in places]
    groups = values(book["小组赛 小组排名"])
    assert groups[0] == ["小组", "名次", "并列", "参赛对", "单位", "胜", "负", "积分", "净胜级数", "总级数", "同分说明",
                         "已退赛"]
    expected = [[g.name, r.rank, r.entry.name, r.entry.unit, r.wins, r.losses, r.points, r.net_levels, r.total_levels]
                for st in group_standings.event_standings(event) for g in st.groups for r in g.rows]
    got = [[r[0], r[1], r[3], r[4], r[5], r[6], r[7], r[8], r[9]] for r in groups[1:]]
    assert got == expected
    assert any(row[7] for row in got) and any(row[6] for row in got)  # results count: not all zeros
    for row in groups[1:]:
        for value in (row[1], row[5], row[6], row[7], row[8], row[9]):
            assert isinstance(value, (int, float)) and not isinstance(value, bool), row  # numbers, never text
    for r in expected:  # the page shows the same figures
        assert f"<td>{r[4]}–{r[5]}</td><td>{r[6]}</td><td>{r[7]}</td><td>{r[8]}</td>" in page


def test_a_name_typed_as_a_formula_stays_text(client, played):
    event, _stage, _chief = played
    sheet = workbook(client.get(reverse("competition_standings_xlsx", args=[event.slug])))["小组赛 小组排名"]
    cells = [row[3] for row in sheet.iter_rows(min_row=2) if row[3].value == "=SUM(1,2)"]
    assert cells and all(cell.data_type == "s" for cell in cells)


def test_crosstables_export_has_a_sheet_per_group_with_the_pages_cells(client, played):
    event, _stage, _chief = played
    url = reverse("competition_crosstables_xlsx", args=[event.slug])
    assert url in client.get(reverse("competition_groups", args=[event.slug])).content.decode()
    book = workbook(client.get(url))
    tables = [g for st in group_standings.event_standings(event) for g in st.groups]
    assert book.sheetnames == [f"小组赛 {g.name}组" for g in tables]
    for group, sheet in zip(tables, book.worksheets):
        rows = values(sheet)
        assert rows[0] == ["序号", "参赛对", "单位"] + [str(i) for i in range(1, len(group.entries) + 1)]
        for i, (entry, cells, row) in enumerate(zip(group.entries, group.cross, rows[1:]), start=1):
            assert row[:3] == [i, entry.name, entry.unit]
            assert [blank(v) for v in row[3:]] == list(cells)
    played_cells = [c for g in tables for cells in g.cross for c in cells if c.startswith(("胜", "负"))]
    assert len(played_cells) == 6  # three results, each seen from both sides


def test_penalty_log_export_has_the_pages_rows_and_notes_only_for_staff(client, played):
    event, _stage, chief = played
    url = reverse("event_penalty_log_xlsx", args=[event.slug])
    assert url in client.get(reverse("event_penalty_log", args=[event.slug])).content.decode()
    rows = values(workbook(client.get(url))["判罚记录"])
    assert rows[0] == ["轮次", "桌号", "副", "方", "参赛对", "判罚", "适用条款", "状态", "记录人", "记录时间", "裁判备注",
                       "撤销", "申诉"]
    page_rows = public_log.log_rows(event_log(event)["rulings"], AnonymousUser())
    assert len(rows) == 1 + len(page_rows) == 2
    ruling, line = page_rows[0], rows[1]
    assert line[:8] == [ruling["round"], ruling["table"], ruling["hand_number"], "南北", ruling["side_name"],
                        str(ruling["explanation"]), ruling["clause"], str(ruling["state_label"])]
    assert isinstance(line[1], int) and isinstance(line[2], int)  # table and hand as numbers
    assert isinstance(line[9], dt.datetime)  # recorded at: a date cell, not text
    assert blank(line[10]) == ""  # the public does not see the referee's note
    client.force_login(chief)
    staff = values(workbook(client.get(url))["判罚记录"])
    assert staff[1][10] == "迟到3分钟，已警告"


def test_an_unpublished_events_exports_are_not_public(client, played):
    event, _stage, _chief = played
    event.published = False
    event.save()
    for name in ("competition_standings_xlsx", "competition_crosstables_xlsx", "event_penalty_log_xlsx"):
        assert client.get(reverse(name, args=[event.slug])).status_code == 404


def test_swiss_standings_sheet_matches_the_swiss_page(client, db):
    event = make_event(7, 3, slug="swiss-export")
    stage = swiss_rounds.create_swiss_stage(event, rounds=3)
    swiss_rounds.pair_next_round(stage, seed="x")
    for match in Match.objects.filter(round__stage=stage, status="scheduled").order_by("table"):
        finish(match, "ew" if match.table == 1 else "ns", "A", "7")
    url = reverse("competition_standings_xlsx", args=[event.slug])
    assert url in client.get(reverse("competition_swiss", args=[event.slug])).content.decode()
    rows = values(workbook(client.get(url))[f"{stage.name} 排名"])
    assert rows[0] == ["名次", "并列", "参赛对", "单位", "胜", "负", "轮空", "积分", "对手分", "净胜级数", "同分说明",
                       "已退赛"]
    result = swiss_standings.stage_standings(stage)
    assert [[r[0], r[2], r[4], r[5], r[6], r[7], r[8], r[9]] for r in rows[1:]] == [
        [r.rank, r.entry.name, r.wins, r.losses, r.byes, r.points, r.buchholz, r.net_levels] for r in result.rows]
    assert sum(r[6] for r in rows[1:]) == 1 and sum(r[4] for r in rows[1:]) == 4  # 3 tables won, the bye counts as a win
    assert all(isinstance(r[7], (int, float)) for r in rows[1:])

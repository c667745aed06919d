"""Issue 43 items 7 and 8: the score sheets and the schedule name the table's referee from the referee grid
(by display name) and the schedule names each pair once; the draw sheet's data for checking is in words and
tables a person can check (the seed, the method, the entries in the order drawn), Chinese first, English on
request, never the raw record."""
from types import SimpleNamespace

import pytest

from tests.tournament.test_printouts import pages_text
from tests.tournament.test_printouts_data import chief, event, first_round, played_match  # noqa: F401
from tests.tournament.test_printouts_draw_words import drawn_event  # noqa: F401
from tournament.competition.timetable import set_cell
from tournament.models import Draw, Pair
from tournament.printouts import draw as draw_sheet
from tournament.printouts import draw_checks
from tournament.printouts.common import PrintOptions
from tournament.printouts.services import build_printout
from tournament.staff.services import add_staff


@pytest.fixture
def refereed(event, first_round):  # noqa: F811
    """Two open tables of round 1 with a referee set in the grid (a display name unlike the login name)."""
    referee = add_staff(event, "table_referee", display="欧阳裁判")[0].user
    tables = list(first_round.matches.exclude(status="finished").order_by("table")[:2])
    for match in tables:
        set_cell(match, referee)
    return referee, tables


def test_each_score_sheet_names_the_tables_referee(event, first_round, refereed):  # noqa: F811
    referee, tables = refereed
    pdf = build_printout("scoresheets", event, PrintOptions(round=first_round.pk))
    by_table = {}
    for page in pages_text(pdf):
        table = next(line for line in page.splitlines() if line.startswith("桌号："))
        by_table[table.removeprefix("桌号：").split()[0]] = page
    for match in first_round.matches.exclude(table=None):
        page = by_table[str(match.table)]
        assert ("裁判员：欧阳裁判" in page) == (match in tables), match.table
    assert referee.username not in "".join(by_table.values())


def test_the_schedule_names_the_referee_and_each_pair_once(event, first_round, refereed):  # noqa: F811
    _referee, tables = refereed
    unnamed = tables[0].ns   # entered without a name: named after its players
    unnamed.name = f"{unnamed.player1.name}/{unnamed.player2.name}"
    unnamed.save()
    text = "\n".join(pages_text(build_printout("schedule", event, PrintOptions(round=first_round.pk))))
    assert "裁判员" in text and text.count("欧阳裁判") == 2
    assert text.count(unnamed.player1.name) == text.count(unnamed.name)   # its players are not printed again
    named = tables[0].ew
    assert named.name in text and f"{named.player1.name}、{named.player2.name}" in text   # a named pair's players


def _check_parts(text, marker):
    """The text of each draw's data for checking (from the marker to the next draw's "#")."""
    return [part.split("\n#")[0] for part in text.split(marker)[1:]]


def test_the_draws_data_for_checking_is_words_and_tables(drawn_event):  # noqa: F811
    event, groups, _knockout = drawn_event
    text = "\n".join(pages_text(build_printout("draw", event, PrintOptions())))
    parts = _check_parts(text, "复核数据")
    assert len(parts) == Draw.objects.filter(event=event).count()
    for part in parts:
        assert '{"' not in part and "[[" not in part and "params" not in part, part
        assert "抽签种子：" in part and "方法：" in part
    grouping = Draw.objects.get(stage=groups, kind=Draw.Kind.GROUPS)
    words = " ".join(parts[0].split()) + " "
    pairs = {p.pk: p for p in Pair.objects.filter(event=event).select_related("unit")}
    assert f"抽签种子：{grouping.seed}" in words and "分入 2 个小组" in words
    for place, pk in enumerate(grouping.params["entries"], start=1):   # the entries in the order drawn
        pair = pairs[pk]
        row = f" {place} {pk} {pair.name} {pair.unit.name}{f' {pair.seed}' if pair.seed else ''} "
        assert row in words, (row, words)
    tables = " ".join(parts[2].split())
    assert "abc:R2" in tables and "抽得桌号" in tables


def test_the_data_for_checking_in_english_on_request(drawn_event):  # noqa: F811
    event = drawn_event[0]
    text = "\n".join(pages_text(build_printout("draw", event, PrintOptions(lang="en"))))
    parts = _check_parts(text, "Data for checking")
    assert len(parts) == Draw.objects.filter(event=event).count()
    for part in parts:
        assert "Draw seed: " in part and "Method: " in part and '{"' not in part
        assert not any(word in part for word in ("方法", "抽签", "顺序", "结果")), part


class _Names:
    def pair(self, pk):
        return draw_sheet._Entry(f"队{pk}", f"单位{pk % 2}", "")

    def player(self, pk):
        return draw_sheet._Entry(f"选手{pk}", "", "")

    def side(self, pk):
        return self.pair(pk).name


def test_swiss_and_partner_draws_are_checked_in_words():
    swiss = SimpleNamespace(seed="s1", params={"round": 2, "ranking": [3, 1, 2], "scores": {"3": 2, "1": 1, "2": 0},
                                               "had_bye": [2], "played": [[1, 3]], "entries": [1, 2, 3], "units": {},
                                               "standings_seed": "lot-7"})
    check = draw_checks._swiss_check(swiss, _Names(), {})
    assert any("第 2 轮" in line for line in check.lines) and any("1" in line for line in check.lines[2:3])
    title, table = check.tables[0]
    assert [row[:5] for row in table.rows] == [("1", "3", "队3", "单位1", "2"), ("2", "1", "队1", "单位1", "1"),
                                               ("3", "2", "队2", "单位0", "0")]
    assert table.rows[2][5] == "是" and table.rows[0][5] == ""
    assert any("lot-7" in line for line in check.lines)
    pairs = SimpleNamespace(seed="p1", params={"pools": [{"pool": "单位“一厂”", "players": [7, 5, 9, 8]}]})
    _title, table = draw_checks._pairs_check(pairs, _Names(), {}).tables[0]
    assert [row[1:] for row in table.rows] == [("1", "7", "选手7"), ("2", "5", "选手5"), ("3", "9", "选手9"),
                                               ("4", "8", "选手8")]

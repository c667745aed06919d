"""Standings and crosstables as .xlsx: the columns of the public pages, Chinese headers, numbers as numbers.

Read only: the figures come from the same services as the pages (``group_standings.event_standings`` for the group
tables and crosstables, ``placings.final_ranking`` for the final ranking, ``swiss_standings.stage_standings``
for a Swiss stage), written by the one workbook writer (``common.workbook.write_workbook``: bold frozen
header, a name typed as "=..." stays text). A shared place is the number with "是" under 并列 (the pages
write "3="); a disqualified entry follows the ranked ones with no place and "是" under 取消资格.
"""
from __future__ import annotations

import re

from common.workbook import write_workbook
from tournament.competition import group_standings, placings, swiss_standings
from tournament.models import Stage

FINAL_HEADER = ["名次", "并列", "参赛对", "单位", "决出方式", "取消资格"]
GROUP_HEADER = ["小组", "名次", "并列", "参赛对", "单位", "胜", "负", "积分", "净胜级数", "总级数", "同分说明", "已退赛"]
SWISS_HEADER = ["名次", "并列", "参赛对", "单位", "胜", "负", "轮空", "积分", "对手分", "净胜级数", "同分说明", "已退赛"]
SHEET_NAME_MAX = 31
YES = "是"


def number(value):
    """A figure as Excel should hold it: 2.0 → 2, 1.5 → 1.5 (never text)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _flag(value: bool) -> str:
    return YES if value else ""


def sheet_title(text: str, taken: set) -> str:
    """A valid, unused worksheet name: no []:*?/\\ characters, at most 31 characters."""
    base = re.sub(r"[\[\]:*?/\\]", " ", text).strip()[:SHEET_NAME_MAX] or "Sheet"
    title, n = base, 2
    while title in taken:
        suffix = f" ({n})"
        title, n = base[:SHEET_NAME_MAX - len(suffix)] + suffix, n + 1
    taken.add(title)
    return title


def final_ranking_rows(event) -> tuple[list[list], bool]:
    """The final ranking page's rows: place, shared, pair, unit, where the place was decided; then each
    disqualified entry without a place, 是 under 取消资格 (it takes no place: ``placings``' note)."""
    ranked = placings.event_ranking(event)
    rows = [[p.place, _flag(p.shared), p.entry.name, p.entry.unit, p.how, ""] for p in ranked.places]
    rows += [[None, "", e.name, e.unit, "", YES] for e in ranked.disqualified]
    return rows, ranked.complete


def group_rows(stage_standings) -> list[list]:
    """A round-robin stage's group tables, one row per entry, group by group (the group page's columns)."""
    return [[g.name, r.rank, _flag(r.shared), r.entry.name, r.entry.unit, r.wins, r.losses, number(r.points),
             r.net_levels, r.total_levels, r.tie_note, _flag(r.entry.withdrawn)]
            for g in stage_standings.groups for r in g.rows]


def swiss_rows(result) -> list[list]:
    """A Swiss stage's standings (the Swiss page's columns)."""
    return [[r.rank, _flag(r.shared), r.entry.name, r.entry.unit, r.wins, r.losses, r.byes, number(r.points),
             number(r.buchholz), r.net_levels, r.tie_note, _flag(r.entry.withdrawn)] for r in result.rows]


def standings_workbook(event) -> bytes:
    """The final ranking, then each round-robin stage's group tables and each Swiss stage's standings."""
    taken: set = set()
    rows, complete = final_ranking_rows(event)
    sheets = [(sheet_title("最终排名" if complete else "最终排名（暂定）", taken), FINAL_HEADER, rows)]
    for stage in group_standings.event_standings(event):
        sheets.append((sheet_title(f"{stage.name} 小组排名", taken), GROUP_HEADER, group_rows(stage)))
    for stage in event.stages.filter(kind=Stage.Kind.SWISS).order_by("order"):
        result = swiss_standings.stage_standings(stage)
        sheets.append((sheet_title(f"{stage.name} 排名", taken), SWISS_HEADER, swiss_rows(result)))
    return write_workbook(sheets)


def crosstable_sheet(group) -> tuple[list, list[list]]:
    """One group's crosstable as the page shows it: number, pair, unit, then a column per opponent number."""
    header = ["序号", "参赛对", "单位"] + [str(i) for i in range(1, len(group.entries) + 1)]
    rows = [[i, entry.name, entry.unit, *cells]
            for i, (entry, cells) in enumerate(zip(group.entries, group.cross), start=1)]
    return header, rows


def crosstables_workbook(event) -> bytes:
    """A sheet per group of every round-robin stage ("小组赛 A组"): its crosstable."""
    taken: set = set()
    sheets = []
    for stage in group_standings.event_standings(event):
        for group in stage.groups:
            header, rows = crosstable_sheet(group)
            sheets.append((sheet_title(f"{stage.name} {group.name}组", taken), header, rows))
    if not sheets:
        sheets.append((sheet_title("对阵成绩表", taken), ["序号", "参赛对", "单位"], []))
    return write_workbook(sheets)

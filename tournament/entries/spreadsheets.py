"""Import entries from .xlsx/.csv and export entries, schedule and results to .xlsx.

Import is all-or-nothing: every row goes through :func:`tournament.entries.pairs.add_pair` inside one
transaction; each bad row is reported (row number, column, message in the active language) and, if any row is bad,
the whole transaction is rolled back. CSV may be UTF-8 (with or without BOM) or GBK/GB18030 as saved
by Excel on Chinese Windows.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError, gettext_noop
from common.naturalsort import natural_key
from common.numbers import whole
from common.workbook import write_workbook
from scoring.legacy_explanations import in_force_text
from tournament.entries import limits, sheet_stream
from tournament.entries.pairs import add_pair
from tournament.entries.services import (
    EntryError,
    PairData,
    PlayerData,
    clean_gender,
    team_problems,
    team_rule,
)
from tournament.models import Event, Match, Pair

MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_ROWS = 5000

#: Import columns: key -> (Chinese header, other accepted headers). The key is also the EntryError field.
COLUMNS = {
    "unit": ("单位", ("unit", "单位名称")),
    "name": ("对名", ("pair", "pair name", "name", "队名")),
    "player1": ("选手1", ("player1", "player 1")),
    "gender1": ("性别1", ("gender1", "gender 1")),
    "phone1": ("电话1", ("phone1", "phone 1")),
    "player2": ("选手2", ("player2", "player 2")),
    "gender2": ("性别2", ("gender2", "gender 2")),
    "phone2": ("电话2", ("phone2", "phone 2")),
    "seed": ("种子", ("seed", "种子号")),
    "team": ("队伍", ("team",)),
    "reserve": ("候补", ("reserve",)),
    "status": ("状态", ("status",)),
}
REQUIRED = ("unit", "player1", "gender1", "player2", "gender2")
YES = {"是", "y", "yes", "true", "1", "候补", "√", "✓"}
NO = {"", "否", "n", "no", "false", "0", "正选"}
WITHDRAWN_WORDS = {"已退赛", "退赛", "withdrawn"}
#: What each import column accepts, as the import page and the template's guide sheet say (one text, so they
#: never disagree).
COLUMN_HELP = {
    "unit": gettext_noop("The unit's name, at most %(unit)s characters. Required."),
    "name": gettext_noop("The pair's name, at most %(name)s characters; left empty: “player 1/player 2”."),
    "player1": gettext_noop("A player's name, at most %(person)s characters. Required."),
    "gender1": gettext_noop("男 or 女 (also M or F). Required."),
    "phone1": gettext_noop("A phone number, at most 30 digits; may be empty."),
    "seed": gettext_noop("A whole number from 1 to %(seed)s for a seeded pair; empty for the others."),
    "team": gettext_noop("The team within the unit a pair plays for (team events: required for every pair, "
                         "reserves included); empty otherwise."),
    "reserve": gettext_noop("是 for a reserve pair of its team, 否 or empty for a pair that plays."),
    "status": gettext_noop("已退赛 (withdrawn) leaves the row out; empty for an entry. The export writes it."),
}
COLUMN_HELP["player2"], COLUMN_HELP["gender2"], COLUMN_HELP["phone2"] = (
    COLUMN_HELP["player1"], COLUMN_HELP["gender1"], COLUMN_HELP["phone1"])


def column_guide() -> list[tuple[str, str]]:
    """(Chinese header, what it accepts in the active language) for every import column, in the file's order."""
    numbers = {"unit": limits.LIMITS["unit"], "name": limits.LIMITS["name"], "person": limits.PERSON,
               "seed": limits.MAX_SEED}
    return [(COLUMNS[key][0], _(COLUMN_HELP[key]) % numbers) for key in COLUMNS]


#: Which column an EntryError field is reported under ("slot" and "" fall back to the row as a whole).
FIELD_COLUMNS = {key: header for key, (header, _) in COLUMNS.items()}


@dataclass(frozen=True)
class RowError:
    """One problem in an uploaded file: 1-based row number as seen in Excel, column header, message."""

    row: int
    column: str
    message: str


class ImportFailed(Exception):
    """The file was refused; ``errors`` lists every problem found. Nothing was saved."""

    def __init__(self, errors: list[RowError]):
        super().__init__(_("Import failed: %(count)s problems, no entry was saved.") % {"count": len(errors)})
        self.errors = errors


# --------------------------------------------------------------------------- reading files
def _header_key(text) -> str | None:
    label = str(text or "").strip().lower()
    for key, (zh, aliases) in COLUMNS.items():
        if label == zh.lower() or label in aliases:
            return key
    return None


def _decode_csv(raw: bytes) -> str:
    """UTF-8 (BOM or not) first, then GB18030 (a superset of GBK)."""
    for encoding in ("utf-8-sig", "gb18030"):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ImportFailed([RowError(1, "", _("The file's encoding is not recognised: save it as a UTF-8 or GBK CSV file, or as .xlsx."))])


def _raw_rows(raw: bytes, filename: str):
    """(row number, cell texts) of the file, read as a stream with hard caps (``sheet_stream``)."""
    name = (filename or "").lower()
    if name.endswith(".csv"):
        return sheet_stream.csv_rows(_decode_csv(raw))
    if name.endswith(".xlsx"):
        return sheet_stream.xlsx_rows(raw)
    raise ImportFailed([RowError(1, "", _("Only .xlsx or .csv files can be imported."))])


def read_table(raw: bytes, filename: str) -> list[tuple[int, dict]]:
    """(row number, {column key: text}) for each non-empty data row; header problems raise ImportFailed.

    The rows are read as a stream: a file past the caps on rows, columns or a cell's length is refused
    (naming the cap) as soon as the reader meets it, whatever size the file declares."""
    if len(raw) > MAX_UPLOAD_BYTES:
        raise ImportFailed([RowError(1, "", _("The file is too big (at most 5 MB)."))])
    try:
        return _table(_raw_rows(raw, filename))
    except sheet_stream.SheetRefused as exc:
        raise ImportFailed([RowError(exc.row, "", str(exc))]) from exc


def _table(rows) -> list[tuple[int, dict]]:
    keys = None
    table = []
    for number, row in rows:
        if keys is None:
            if any(_text(c) for c in row):
                keys = _header(number, row)
            continue
        values = {k: _text(v) for k, v in zip(keys, row) if k}
        if any(values.values()):
            table.append((number, values))
            if len(table) > MAX_ROWS:
                raise ImportFailed([RowError(1, "", _("Too many rows (at most %(most)s).") % {"most": MAX_ROWS})])
    if keys is None:
        raise ImportFailed([RowError(1, "", _("The file is empty."))])
    return table


def _header(number: int, header: list) -> list:
    """The column keys of the header row; unknown or missing columns raise ImportFailed."""
    keys = [_header_key(h) for h in header]
    errors = [RowError(number, _text(h), _("Unknown column “%(column)s”.") % {"column": _text(h)})
              for h, k in zip(header, keys) if k is None and _text(h)]
    missing = [COLUMNS[k][0] for k in REQUIRED if k not in keys]
    if missing:
        errors.append(RowError(number, "", _("Required columns missing: %(columns)s") % {"columns": "、".join(missing)}))
    if errors:
        raise ImportFailed(errors)
    return keys


def _text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


# --------------------------------------------------------------------------- rows to entries
def _parse_row(values: dict) -> tuple[PairData | None, list[tuple[str, str]]]:
    """PairData from one row, or the (column key, message) problems that stop it."""
    problems = []
    for key in REQUIRED:
        if not values.get(key):
            problems.append((key, _("“%(column)s” cannot be empty.") % {"column": COLUMNS[key][0]}))
    for key in ("gender1", "gender2"):
        if values.get(key):
            try:
                clean_gender(values[key], key)
            except EntryError as exc:
                problems.append((key, str(exc)))
    seed = values.get("seed") or None
    if seed is not None:
        if (whole(seed) or 0) > 0:
            seed = whole(seed)
        else:
            problems.append(("seed", _("The seed number must be a positive whole number, not “%(value)s”.") % {"value": seed}))
    reserve_text = values.get("reserve", "").lower()
    if reserve_text not in YES | NO:
        problems.append(("reserve", _("“%(column)s” can only be “是” (yes) or “否” (no), not “%(value)s”.") % {
            "column": COLUMNS["reserve"][0], "value": values["reserve"]}))
    if problems:
        return None, problems
    return PairData(
        unit=values["unit"], name=values.get("name", ""), seed=seed, team=values.get("team", ""),
        reserve=reserve_text in YES,
        player1=PlayerData(values["player1"], values["gender1"], values.get("phone1", "")),
        player2=PlayerData(values["player2"], values["gender2"], values.get("phone2", "")),
    ), []


def import_entries(event: Event, raw: bytes, filename: str) -> list[Pair]:
    """Enter every row of the file as a pair; raise ImportFailed (nothing saved) if any row is bad."""
    table = read_table(raw, filename)
    errors: list[RowError] = []
    created: list[Pair] = []
    team_rows: dict[str, list[int]] = {}
    teams_needed = team_rule(event) is not None
    with transaction.atomic():
        for number, values in table:
            if values.get("status", "").lower() in WITHDRAWN_WORDS:
                continue
            if _is_example(values):    # the template's example row, left in: not an entry
                errors.append(RowError(number, "", str(UserError(gettext_noop(
                    "This is the template's example row: delete it before importing.")))))
                continue
            if teams_needed and not values.get("team"):   # reported with the row's other problems
                errors.append(RowError(number, COLUMNS["team"][0], str(UserError(gettext_noop(
                    "This is a team event: every pair needs its team.")))))
            created.extend(_import_row(event, number, values, errors))
            if values.get("team"):
                team_rows.setdefault(values["team"], []).append(number)
        if not errors:
            for problem in team_problems(event):  # only the teams this file touches
                for number in team_rows.get(problem.team, []):
                    errors.append(RowError(number, COLUMNS["team"][0], problem.message))
        if errors:
            transaction.set_rollback(True)
    if errors:
        raise ImportFailed(sorted(errors, key=lambda e: e.row))
    return created


def _import_row(event: Event, number: int, values: dict, errors: list[RowError]) -> list[Pair]:
    data, problems = _parse_row(values)
    for key, message in problems:
        errors.append(RowError(number, COLUMNS[key][0], message))
    if data is None:
        return []
    try:
        with transaction.atomic():
            return [add_pair(event, data)]
    except EntryError as exc:
        errors.append(RowError(number, FIELD_COLUMNS.get(exc.field or "", ""), str(exc)))
        return []


# --------------------------------------------------------------------------- export (common.workbook writes)
ENTRY_HEADER = [COLUMNS[k][0] for k in
                ("unit", "name", "player1", "gender1", "phone1", "player2", "gender2", "phone2",
                 "seed", "team", "reserve", "status")]
GENDER_ZH = {"M": "男", "F": "女"}


def export_entries(event: Event) -> bytes:
    """Entries (same columns as the import, plus 状态) and individual sign-ups, as .xlsx bytes."""
    pairs = sorted(event.pairs.select_related("unit", "team", "player1", "player2"),
                   key=lambda p: (natural_key(p.unit.name), natural_key(p.name)))
    rows = [[p.unit.name, p.name, p.player1.name, GENDER_ZH[p.player1.gender], p.player1.phone,
             p.player2.name, GENDER_ZH[p.player2.gender], p.player2.phone, p.seed,
             p.team.name if p.team else "", "是" if p.reserve else "否",
             "已退赛" if p.status == Pair.Status.WITHDRAWN else "正常"] for p in pairs]
    regs = sorted(event.registrations.select_related("player__unit", "team", "pair").order_by("id"),
                  key=lambda r: natural_key(r.player.unit.name))
    singles = [[r.player.unit.name, r.player.name, GENDER_ZH[r.player.gender], r.player.phone,
                r.team.name if r.team else "", "是" if r.reserve else "否", r.pool,
                r.pair.name if r.pair else "", "已退赛" if r.status == "withdrawn" else "正常"] for r in regs]
    return write_workbook([
        ("报名", ENTRY_HEADER, rows),
        ("单人报名", ["单位", "姓名", "性别", "电话", "队伍", "候补", "抽签池", "抽签组成的对", "状态"], singles),
    ])


SCHEDULE_HEADER = ["阶段", "轮次", "小组", "桌号", "南北", "东西", "状态"]
RESULT_HEADER = SCHEDULE_HEADER + ["胜方", "南北级数", "东西级数", "说明"]


def _matches(event: Event):
    return (Match.objects.filter(round__stage__event=event)
            .select_related("round__stage", "group", "ns", "ew", "winner")
            .order_by("round__stage__order", "round__number", "table", "id"))


def _match_row(m: Match) -> list:
    return [m.round.stage.name, m.round.name or f"第{m.round.number}轮", m.group.name if m.group else "",
            m.table, m.ns.name if m.ns else m.side_words("ns"), m.ew.name if m.ew else m.side_words("ew"),
            str(m.get_status_display())]


def export_schedule(event: Event) -> bytes:
    """Every match by stage, round and table, as stored (.xlsx bytes)."""
    return write_workbook([("赛程", SCHEDULE_HEADER, [_match_row(m) for m in _matches(event)])])


def export_results(event: Event) -> bytes:
    """Every match with its status, winner and levels as recorded (.xlsx bytes)."""
    rows = [_match_row(m) + [m.winner.name if m.winner else "", m.ns_level, m.ew_level, in_force_text(m.result_note)]
            for m in _matches(event)]
    return write_workbook([("成绩", RESULT_HEADER, rows)])


#: The template's example row; a file that still holds it is refused (the row is named).
EXAMPLE_ROW = ["示例单位", "示例一队", "张三", "男", "13800000001", "李四", "女", "", "", "", "否", ""]


def _is_example(values: dict) -> bool:
    return (values.get("unit"), values.get("player1"), values.get("player2")) == (
        EXAMPLE_ROW[0], EXAMPLE_ROW[2], EXAMPLE_ROW[5])


def import_template() -> bytes:
    """An empty import sheet with the Chinese headers and one example row, then a guide sheet saying what each
    column accepts (the import reads the first sheet only)."""
    guide = [[header, text] for header, text in column_guide()]
    return write_workbook([("报名", ENTRY_HEADER, [EXAMPLE_ROW]), ("填写说明", ["列", "填写"], guide)])

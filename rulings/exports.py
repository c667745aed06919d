"""The event's penalty log as .xlsx: the penalty log page's columns with Chinese headers, numbers as numbers.

The rows are the page's (``rulings.presenters.event_log`` for the reader, completed by
``rulings.public_log.log_rows``: the presenter leaves the referees' own words to the event's staff), written by the entries' workbook writer (bold frozen
header, a text typed as "=..." stays text). The page's sanction cell carries the note, the void and the
appeals under the sanction; here they are columns of their own.
"""
from __future__ import annotations

from django.utils import timezone

from common.workbook import write_workbook
from rulings import public_log
from rulings.presenters import event_log

PENALTY_HEADER = ["轮次", "桌号", "副", "方", "参赛对", "判罚", "适用条款", "状态", "记录人", "记录时间", "裁判备注",
                  "撤销", "申诉"]
SIDES = {"NS": "南北", "EW": "东西", "N": "北", "S": "南", "E": "东", "W": "西"}


def local(value):
    """An aware datetime as the event's local time without a zone (what a spreadsheet cell holds)."""
    return timezone.localtime(value).replace(tzinfo=None) if value else None


def penalty_rows(event, user) -> list[list]:
    """One row per ruling, in the page's order, as ``user`` may read it."""
    rows = []
    for row in public_log.log_rows(event_log(event, user)["rulings"], user):
        void = row.get("void")
        voided = " ".join(part for part in (void["by"], timezone.localtime(void["at"]).strftime("%H:%M"),
                                            void["note"]) if part) if void else ""
        appeals = "；".join(
            " · ".join([SIDES.get(a["side"], a["side"]) + (f"：{a['grounds']}" if a["grounds"] else "")]
                       + [f"第{d['instance']}级：{d['outcome_label']}" for d in a["decisions"]])
            for a in row["appeals"])
        approval_note = (row.get("approval") or {}).get("note")
        notes = "；".join([*([row["note"]] if row["note"] else []), *([f"核准：{approval_note}"] if approval_note else [])])
        rows.append([
            row["round"], row["table"], row["hand_number"], SIDES.get(row["side"], row["side"]), row["side_name"],
            str(row["explanation"]), row["clause"], str(row["state_label"]),
            row["proposer"] or row["recorded_by_name"] or row["recorded_by"], local(row["recorded_at"]),
            notes, voided, appeals,
        ])
    return rows


def penalty_log_workbook(event, user) -> bytes:
    """The penalty log sheet (判罚记录)."""
    return write_workbook([("判罚记录", PENALTY_HEADER, penalty_rows(event, user))])

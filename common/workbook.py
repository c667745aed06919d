"""The one .xlsx writer every export shares (entries, schedule, results, standings, crosstables, units, the
penalty log): one sheet per (title, header, rows), a bold frozen header, and a text typed as "=..." kept as
text, never a live formula. Plain values in, the file's bytes out."""
from __future__ import annotations

import io

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter


def write_workbook(sheets: list[tuple[str, list[str], list[list]]]) -> bytes:
    """An .xlsx with one sheet per (title, header, rows); bold header, frozen first row, sane widths."""
    book = Workbook()
    book.remove(book.active)
    for title, header, rows in sheets:
        sheet = book.create_sheet(title)
        sheet.append(header)
        for cell in sheet[1]:
            cell.font = Font(bold=True)
        for row in rows:
            sheet.append(row)
            for cell in sheet[sheet.max_row]:
                if cell.data_type == "f":  # a name typed as "=..." stays text, never a live formula
                    cell.data_type = "s"
        sheet.freeze_panes = "A2"
        for i, label in enumerate(header, start=1):
            sheet.column_dimensions[get_column_letter(i)].width = max(8, 2 * len(label) + 4)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()

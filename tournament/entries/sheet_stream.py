"""Read an uploaded .xlsx or .csv as a stream of rows with hard caps, before anything large is held.

openpyxl pads every row to the sheet's declared ``<dimension ref>`` (a 1.6 KB file claiming
``A1:XFD1048576`` asks for billions of cells) and keeps every parsed ``<row>`` element under
``<sheetData>``. This reader never pads to the declared dimension (a dimension past the caps is
refused at once), parses the sheet's XML incrementally, drops each cell and row once read, and stops at the first row, column or cell past its cap. The caps are
checked on the zip's declared sizes first (Python's zipfile refuses a member longer than it declares).

Pure Python (no Django): it raises :class:`common.errors.UserError` naming the cap; the import turns it
into its row-by-row report.
"""
from __future__ import annotations

import csv
import io
import posixpath
import zipfile
from collections.abc import Iterator
from xml.etree.ElementTree import ParseError, XMLPullParser

from common.errors import UserError, gettext_noop

#: Rows of a sheet or CSV file read at most (a header, 5,000 entries and room for blank lines).
MAX_SHEET_ROWS = 6000
#: Columns read at most (the import has 12).
MAX_COLUMNS = 40
#: Cell elements in one row at most, empty ones included (Excel writes a formatted row without cells).
MAX_ROW_CELLS = 1000
#: Characters in one cell at most.
MAX_CELL_CHARS = 1000
#: Uncompressed bytes of the worksheet's XML, of the shared strings and of the whole workbook.
MAX_SHEET_XML_BYTES = 32 * 1024 * 1024
MAX_STRINGS_XML_BYTES = 8 * 1024 * 1024
MAX_WORKBOOK_BYTES = 64 * 1024 * 1024
#: Small parts (workbook.xml and its relationships) read whole.
MAX_PART_BYTES = 1024 * 1024

_CHUNK = 64 * 1024
_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PKG_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"

TOO_MANY_ROWS = gettext_noop("The file has too many rows: at most %(most)s rows are read.")
TOO_MANY_COLUMNS = gettext_noop("The file has too many columns: at most %(most)s columns are read.")
CELL_TOO_LONG = gettext_noop("A cell is too long: at most %(most)s characters.")
TOO_BIG_UNPACKED = gettext_noop("The workbook is too big once unpacked: at most %(most)s MB.")
NOT_A_WORKBOOK = gettext_noop("This .xlsx file cannot be opened: check that it is an Excel workbook.")
CSV_NUL = gettext_noop("The CSV file contains a NUL character: save it again as a UTF-8 or GBK CSV file.")
CSV_BROKEN = gettext_noop("The CSV file cannot be read: check its quotes and line ends.")


class SheetRefused(UserError):
    """The file is refused as a whole; ``row`` is where the reader stopped (1 when not known)."""

    def __init__(self, message, row=1, **params):
        super().__init__(message, None, **params)
        self.row = row


# --------------------------------------------------------------------------- xlsx
def _column_index(reference: str) -> int:
    """1-based column of a cell reference such as ``C7`` (0 when it has no letters)."""
    index = 0
    for char in reference:
        if "A" <= char <= "Z":
            index = index * 26 + ord(char) - 64
        elif "a" <= char <= "z":
            index = index * 26 + ord(char) - 96
        else:
            break
        if index > 100_000:  # past any real column: stop counting
            break
    return index


def _xml_events(archive: zipfile.ZipFile, name: str, limit: int, events=("end",)) -> Iterator:
    """(event, element) of one part, fed to the parser in chunks; refuses a DOCTYPE (entity tricks)."""
    info = archive.getinfo(name)
    if info.file_size > limit:
        raise SheetRefused(TOO_BIG_UNPACKED, most=limit // (1024 * 1024))
    parser = XMLPullParser(events=events)
    first = True
    with archive.open(info) as stream:
        while chunk := stream.read(_CHUNK):
            if first and b"<!DOCTYPE" in chunk[:4096].upper():
                raise SheetRefused(NOT_A_WORKBOOK)
            first = False
            parser.feed(chunk)
            yield from parser.read_events()
    parser.close()
    yield from parser.read_events()


def _first_sheet(archive: zipfile.ZipFile) -> str:
    """The path of the workbook's first worksheet (workbook.xml's first sheet, through its relationship)."""
    names = set(archive.namelist())
    workbook, rels = "xl/workbook.xml", "xl/_rels/workbook.xml.rels"
    first_id = None
    if workbook in names:
        for _event, element in _xml_events(archive, workbook, MAX_PART_BYTES):
            if element.tag == f"{_MAIN}sheet":
                first_id = element.get(f"{_REL}id")
                break
    if first_id and rels in names:
        for _event, element in _xml_events(archive, rels, MAX_PART_BYTES):
            if element.tag == f"{_PKG_REL}Relationship" and element.get("Id") == first_id:
                target = element.get("Target", "")
                path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(f"xl/{target}")
                if path in names:
                    return path
    if "xl/worksheets/sheet1.xml" in names:
        return "xl/worksheets/sheet1.xml"
    raise SheetRefused(NOT_A_WORKBOOK)


def _checked(text: str, row: int) -> str:
    if len(text) > MAX_CELL_CHARS:
        raise SheetRefused(CELL_TOO_LONG, row=row, most=MAX_CELL_CHARS)
    return text


def _text_of(element) -> str:
    """The text of a string item (``<si>`` or ``<is>``): its ``<t>`` runs, without phonetic runs."""
    parts = []
    for child in element:
        if child.tag == f"{_MAIN}t":
            parts.append(child.text or "")
        elif child.tag == f"{_MAIN}r":
            parts.extend(t.text or "" for t in child if t.tag == f"{_MAIN}t")
    return "".join(parts)


def _shared_strings(archive: zipfile.ZipFile) -> list[str]:
    name = "xl/sharedStrings.xml"
    if name not in archive.namelist():
        return []
    strings: list[str] = []
    root = None
    for event, element in _xml_events(archive, name, MAX_STRINGS_XML_BYTES, events=("start", "end")):
        if event == "start":
            if root is None:
                root = element
            continue
        if element.tag == f"{_MAIN}si":
            strings.append(_checked(_text_of(element), 1))
            if len(strings) > MAX_SHEET_ROWS * MAX_COLUMNS:
                raise SheetRefused(TOO_MANY_ROWS, most=MAX_SHEET_ROWS)
            root.clear()  # drop the items read so far
    return strings


def _number_text(value: str) -> str:
    """A numeric cell as the text a person typed: ``13800000001`` not ``1.3800000001E10``, ``2`` not ``2.0``."""
    try:
        return str(int(value))
    except ValueError:
        pass
    try:
        number = float(value)
    except ValueError:
        return value
    if number.is_integer() and abs(number) < 1e21:
        return str(int(number))
    return value


def _cell_value(cell, strings: list[str], row: int) -> str:
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        inline = cell.find(f"{_MAIN}is")
        return _checked(_text_of(inline), row) if inline is not None else ""
    raw = cell.findtext(f"{_MAIN}v") or ""
    if kind == "s":
        try:
            return strings[int(raw)]
        except (ValueError, IndexError):
            raise SheetRefused(NOT_A_WORKBOOK, row=row) from None
    if kind == "b":
        return "TRUE" if raw == "1" else "FALSE"
    if kind == "n":
        return _number_text(_checked(raw, row))
    return _checked(raw, row)  # "str" (a formula's text), "e" (an error), "d" (an ISO date)


def xlsx_rows(raw: bytes) -> Iterator[tuple[int, list[str]]]:
    """(row number as Excel shows it, cell texts) of the first worksheet, at most the caps."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        if sum(info.file_size for info in archive.infolist()) > MAX_WORKBOOK_BYTES:
            raise SheetRefused(TOO_BIG_UNPACKED, most=MAX_WORKBOOK_BYTES // (1024 * 1024))
        sheet = _first_sheet(archive)
        strings = _shared_strings(archive)
        yield from _sheet_rows(archive, sheet, strings)
    except (zipfile.BadZipFile, ParseError, KeyError, EOFError, NotImplementedError, OSError, RuntimeError) as exc:
        raise SheetRefused(NOT_A_WORKBOOK) from exc


def _sheet_rows(archive, sheet, strings) -> Iterator[tuple[int, list[str]]]:
    """Each cell is read and dropped at its end tag, each row at its end tag, and reading stops at the
    first row, cell or value past a cap: a million empty rows or cells cost a few thousand."""
    sheet_data = row = None
    number = column = cells = 0
    values: list[str] = []
    for event, element in _xml_events(archive, sheet, MAX_SHEET_XML_BYTES, events=("start", "end")):
        tag = element.tag
        if event == "start":
            if tag == f"{_MAIN}sheetData":
                sheet_data = element
            elif tag == f"{_MAIN}row":  # refused on the row's start tag: its cells are never read
                number, row, column, cells, values = _row_number(element.get("r"), number), element, 0, 0, []
            elif tag == f"{_MAIN}c":
                cells += 1
                if cells > MAX_ROW_CELLS:
                    raise SheetRefused(TOO_MANY_COLUMNS, row=number, most=MAX_COLUMNS)
            continue
        if tag == f"{_MAIN}dimension":
            _check_dimension(element.get("ref", ""))
        elif tag == f"{_MAIN}c" and row is not None:
            column = _column_index(element.get("r", "")) or column + 1
            value = _cell_value(element, strings, number)
            if column > MAX_COLUMNS:
                if value.strip():
                    raise SheetRefused(TOO_MANY_COLUMNS, row=number, most=MAX_COLUMNS)
            else:
                values.extend([""] * (column - 1 - len(values)))
                values.append(value)
            row.clear()  # the cell is read: drop it
        elif tag == f"{_MAIN}row":
            if sheet_data is not None:
                sheet_data.clear()  # drop the rows read so far
            row = None
            yield number, values


def _check_dimension(ref: str) -> None:
    """A sheet that declares more rows or columns than the caps is refused before its rows are read
    (the declared size is never used to pad or to allocate)."""
    last = ref.split(":")[-1]
    column = _column_index(last)
    digits = last[len(last.rstrip("0123456789")):]
    if digits and int(digits) > MAX_SHEET_ROWS:
        raise SheetRefused(TOO_MANY_ROWS, most=MAX_SHEET_ROWS)
    if column > MAX_COLUMNS:
        raise SheetRefused(TOO_MANY_COLUMNS, most=MAX_COLUMNS)


def _row_number(reference: str | None, previous: int) -> int:
    number = previous + 1
    if reference:
        try:
            number = int(reference)
        except ValueError:
            raise SheetRefused(NOT_A_WORKBOOK, row=previous + 1) from None
    if number > MAX_SHEET_ROWS:
        raise SheetRefused(TOO_MANY_ROWS, row=min(number, MAX_SHEET_ROWS + 1), most=MAX_SHEET_ROWS)
    return number


# --------------------------------------------------------------------------- csv
def csv_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """(row number, fields) of a decoded CSV text, at most the caps; a bare CR ends a line (old Mac files)."""
    if "\x00" in text:
        raise SheetRefused(CSV_NUL)
    reader = csv.reader(io.StringIO(text, newline=""))
    number = 0
    while True:
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:  # a field past csv's own limit (128 KB), a broken quote
            raise SheetRefused(CSV_BROKEN, row=number + 1) from exc
        number += 1
        if number > MAX_SHEET_ROWS:
            raise SheetRefused(TOO_MANY_ROWS, row=number, most=MAX_SHEET_ROWS)
        if len(fields) > MAX_COLUMNS and any(f.strip() for f in fields[MAX_COLUMNS:]):
            raise SheetRefused(TOO_MANY_COLUMNS, row=number, most=MAX_COLUMNS)
        yield number, [_checked(field, number) for field in fields[:MAX_COLUMNS]]

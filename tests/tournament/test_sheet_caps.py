"""Hostile spreadsheets (issue #17 item 1): read as a stream with hard caps on rows, columns and a cell's
length, the declared ``<dimension ref>`` never trusted; each refusal names its cap in Chinese."""
import datetime as dt
import io
import re
import tracemalloc
import zipfile
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from scoring.profile_store import latest_profile
from tournament import roles
from tournament.entries import sheet_stream
from tournament.entries.spreadsheets import ImportFailed, import_entries, read_table
from tournament.models import Event

HEADER = ["单位", "对名", "选手1", "性别1", "电话1", "选手2", "性别2", "电话2"]
ROW = ["甲", "甲一队", "张三", "男", "13800000001", "李四", "女", ""]


@pytest.fixture
def event(db):
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug="caps", name="caps", start_date=day, end_date=day, published=True,
                                profile=latest_profile("shenzhen-community"))


def xlsx(rows):
    book = Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def with_sheet(raw, edit):
    """The workbook ``raw`` with its first sheet's XML passed through ``edit`` (deflated again)."""
    source, out = zipfile.ZipFile(io.BytesIO(raw)), io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                data = edit(data)
            target.writestr(info.filename, data)
    return out.getvalue()


def refusal(raw, filename):
    with pytest.raises(ImportFailed) as caught:
        read_table(raw, filename)
    return caught.value.errors[0]


def measured(action, monkeypatch):
    """(what the reader parsed, peak bytes allocated) of ``action()``: the XML events of a workbook's parts or the
    lines of a CSV text that were read before the refusal (a count, not a time: the caps stop the reading early,
    whatever the machine's speed)."""
    read = [0]

    def counted(items):
        for item in items:
            read[0] += 1
            yield item

    xml_events, csv_reader = sheet_stream._xml_events, sheet_stream.csv.reader
    monkeypatch.setattr(sheet_stream, "_xml_events", lambda *a, **k: counted(xml_events(*a, **k)))
    monkeypatch.setattr(sheet_stream.csv, "reader", lambda *a, **k: counted(csv_reader(*a, **k)))
    tracemalloc.start()
    try:
        action()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        monkeypatch.undo()
    return read[0], peak


#: Parsed before a refusal at most: a chunk's worth of events past the cap (a million cells or rows are millions).
FEW = 50_000


def test_the_dimension_bomb_is_refused_after_a_few_events_and_50_mb(monkeypatch):
    bomb = with_sheet(xlsx([HEADER, ROW]), lambda xml: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', xml))
    assert b"XFD1048576" in zipfile.ZipFile(io.BytesIO(bomb)).read("xl/worksheets/sheet1.xml")
    assert len(bomb) < 10_000
    errors = []
    read, peak = measured(lambda: errors.append(refusal(bomb, "bomb.xlsx")), monkeypatch)
    assert read < FEW and peak < 50 * 1024 * 1024, (read, peak)
    assert "最多 6000 行" in errors[0].message


def test_a_lying_small_dimension_does_not_hide_rows_past_the_cap():
    """The cap is on the rows actually met: a dimension claiming A1:H2 over row 6001 is no shield."""
    raw = with_sheet(xlsx([HEADER, ROW, ROW]), lambda xml: re.sub(
        rb'<dimension ref="[^"]*"', b'<dimension ref="A1:H2"', xml).replace(b'<row r="3"', b'<row r="6001"'))
    assert "最多 6000 行" in refusal(raw, "long.xlsx").message


def test_a_million_empty_rows_are_refused_fast(monkeypatch):
    empty_rows = b"".join(b'<row r="%d"/>' % n for n in range(2, 1_000_002))

    def million(xml):
        return re.sub(rb"</row>\s*</sheetData>", b"</row>" + empty_rows + b"</sheetData>", xml)

    raw = with_sheet(xlsx([HEADER]), million)
    read, peak = measured(lambda: refusal(raw, "empty.xlsx"), monkeypatch)
    assert read < FEW and peak < 50 * 1024 * 1024, (read, peak)
    assert "最多 6000 行" in refusal(raw, "empty.xlsx").message


def test_a_million_empty_csv_lines_are_refused_fast(monkeypatch):
    raw = (",".join(HEADER) + "\r\n" + "\r\n" * 1_000_000).encode()
    read, _peak = measured(lambda: refusal(raw, "empty.csv"), monkeypatch)
    assert read == 6001   # the header and 6,000 rows, then the refusal
    assert "最多 6000 行" in refusal(raw, "empty.csv").message


def test_a_row_of_a_million_empty_cells_is_refused_fast(monkeypatch):
    cells = b"<c/>" * 1_000_000
    raw = with_sheet(xlsx([HEADER, ROW]), lambda xml: xml.replace(b"</row></sheetData>", cells + b"</row></sheetData>"))
    read, peak = measured(lambda: refusal(raw, "cells.xlsx"), monkeypatch)
    assert read < FEW and peak < 50 * 1024 * 1024, (read, peak)
    assert "最多 40 列" in refusal(raw, "cells.xlsx").message


def test_a_row_with_empty_cells_under_the_cell_cap_is_read():
    raw = with_sheet(xlsx([HEADER, ROW]), lambda xml: xml.replace(b"</row></sheetData>", b"<c/>" * 900 + b"</row></sheetData>"))
    assert list(sheet_stream.xlsx_rows(raw))[1] == (2, ROW + [""] * (sheet_stream.MAX_COLUMNS - len(ROW)))


def test_a_value_past_the_column_cap_is_refused_naming_it():
    raw = xlsx([HEADER, ROW + [""] * 40 + ["x"]])
    assert "最多 40 列" in refusal(raw, "wide.xlsx").message


def test_a_far_empty_styled_cell_is_ignored():
    raw = with_sheet(xlsx([HEADER, ROW]), lambda xml: xml.replace(b"</row></sheetData>", b'<c r="ZZ2" s="0"/></row></sheetData>'))
    assert [values["player1"] for _n, values in read_table(raw, "ok.xlsx")] == ["张三"]


def test_a_cell_past_the_length_cap_is_refused_in_xlsx_and_csv():
    long_name = "张" * 1001
    error = refusal(xlsx([HEADER, ["甲", long_name, "张三", "男", "", "李四", "女", ""]]), "long.xlsx")
    assert "最多 1000 个字符" in error.message and error.row == 2
    csv_raw = (",".join(HEADER) + "\n" + ",".join(["甲", long_name, "张三", "男", "", "李四", "女", ""]) + "\n").encode()
    assert "最多 1000 个字符" in refusal(csv_raw, "long.csv").message


def test_a_csv_field_over_128_kb_is_refused_not_a_crash():
    raw = (",".join(HEADER) + "\n" + '"' + "x" * (200 * 1024) + '",a,b,男,,c,女,\n').encode()
    error = refusal(raw, "huge.csv")
    assert error.row == 2 and "CSV" in error.message


def test_a_csv_with_a_nul_is_refused():
    raw = (",".join(HEADER) + "\n甲,\x00,张三,男,,李四,女,\n").encode()
    assert "NUL" in refusal(raw, "nul.csv").message


def test_bare_cr_line_ends_are_read_as_lines(event):
    """Old Mac CSV files end lines with a bare CR: read as lines, not a crash."""
    raw = (",".join(HEADER) + "\r" + ",".join(ROW) + "\r").encode()
    assert [p.player1.name for p in import_entries(event, raw, "mac.csv")] == ["张三"]


def test_a_doctype_in_the_sheet_is_refused():
    raw = with_sheet(xlsx([HEADER, ROW]), lambda xml: xml.replace(
        b"<worksheet", b'<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><worksheet', 1))
    assert "无法打开" in refusal(raw, "dtd.xlsx").message


def test_a_zip_that_unpacks_past_the_cap_is_refused():
    raw = with_sheet(xlsx([HEADER, ROW]), lambda xml: xml.replace(
        b"</worksheet>", b"<!--" + b" " * (40 * 1024 * 1024) + b"--></worksheet>"))
    assert len(raw) < 5 * 1024 * 1024
    assert "MB" in refusal(raw, "zip.xlsx").message


def test_the_import_page_shows_the_cap_and_saves_nothing(client, make_user, event):
    client.force_login(make_user(roles.ORGANISER))
    bomb = with_sheet(xlsx([HEADER, ROW]), lambda xml: re.sub(rb'<dimension ref="[^"]*"', b'<dimension ref="A1:XFD1048576"', xml))
    response = client.post(reverse("entries_import", args=[event.slug]),
                           {"file": SimpleUploadedFile("bomb.xlsx", bomb)})
    assert response.status_code == 200
    assert "最多 6000 行" in response.content.decode()
    assert event.pairs.count() == 0


def test_an_upload_past_5_mb_is_refused_on_its_size(client, make_user, event, settings):
    settings.MAX_REQUEST_BYTES = 10 * 1024 * 1024
    client.force_login(make_user(roles.ORGANISER))
    big = SimpleUploadedFile("big.csv", b"x" * (5 * 1024 * 1024 + 1))
    with mock.patch.object(sheet_stream, "csv_rows") as reader:
        response = client.post(reverse("entries_import", args=[event.slug]), {"file": big})
    assert response.status_code == 200 and "5 MB" in response.content.decode()
    reader.assert_not_called()


def test_a_request_past_the_body_limit_is_refused_before_reading(client, make_user, event):
    client.force_login(make_user(roles.ORGANISER))
    big = SimpleUploadedFile("big.csv", b"x" * (7 * 1024 * 1024))
    response = client.post(reverse("entries_import", args=[event.slug]), {"file": big})
    assert response.status_code == 413 and "请求内容过大" in response.content.decode()

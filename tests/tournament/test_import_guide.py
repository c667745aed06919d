"""Issue 27 item 21: the organiser had to guess what the import columns 队伍 / 候补 / 状态 accept. The import
page and the template's guide sheet say it for every column, in Chinese, with the same limits the import
checks."""
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.tournament.test_entries_pages import event, organiser  # noqa: F401  (fixtures)
from tournament.entries import limits
from tournament.entries.spreadsheets import COLUMNS, import_template

pytestmark = pytest.mark.django_db


def test_the_import_page_says_what_each_column_accepts(organiser, event):  # noqa: F811
    page = organiser.get(reverse("entries_import", args=[event.slug])).content.decode()
    guide = page[page.index('class="card column-guide"'):]
    for header, _other in COLUMNS.values():
        assert f"<dt>{header}</dt>" in guide, header
    assert "已退赛" in guide and "候补对填“是”" in guide and "团体赛" in guide
    assert f"最多 {limits.PERSON} 个字" in guide


def test_the_template_has_a_guide_sheet_the_import_does_not_read():
    book = load_workbook(io.BytesIO(import_template()))
    assert book.sheetnames == ["报名", "填写说明"]
    rows = list(book["填写说明"].iter_rows(values_only=True))
    assert rows[0] == ("列", "填写") and [r[0] for r in rows[1:]] == [h for h, _ in COLUMNS.values()]


def test_the_import_columns_end_with_a_chinese_full_stop(organiser, event):  # noqa: F811
    """The column list ended with an ASCII "." after "状态", a space after the full-width colon."""
    page = organiser.get(reverse("entries_import", args=[event.slug])).content.decode()
    assert '列（中文或英文表头）：<span class="columns">' in page
    assert "状态</span>。" in page

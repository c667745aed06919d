"""Names with numbers sort as people read them (issue 16: entries sorted 一队, 三队, 二队)."""
from hypothesis import given
from hypothesis import strategies as st

from common.naturalsort import chinese_number, natural_key


def test_chinese_team_numbers_sort_by_value():
    names = ["三队", "十一队", "一队", "十队", "二队", "二十队", "两百队"]
    assert sorted(names, key=natural_key) == ["一队", "二队", "三队", "十队", "十一队", "二十队", "两百队"]


def test_arabic_numbers_sort_by_value_and_text_stays_alphabetical():
    assert sorted(["第10桌", "第2桌", "第1桌"], key=natural_key) == ["第1桌", "第2桌", "第10桌"]
    assert sorted(["乙单位", "甲单位"], key=natural_key) == sorted(["乙单位", "甲单位"])


@given(st.integers(min_value=1, max_value=9999))
def test_chinese_numerals_read_back(n):
    digits = "零一二三四五六七八九"
    text, rest = "", n
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        d, rest = divmod(rest, value)
        if d:
            text += digits[d] + unit
        elif text and rest and not text.endswith("零"):
            text += "零"
    assert chinese_number(text) == n

"""Natural ordering of names as people read them: 一队 < 二队 < 三队 < 十队 < 十一队, and 2 < 10.

``natural_key(name)`` splits a name into text and numbers (Arabic digits or Chinese numerals up to the
thousands, with 零/〇 and 两), so ``sorted(names, key=natural_key)`` orders numbered teams, units and
tables the way an organiser expects. Pure Python.
"""
from __future__ import annotations

import re

_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_UNITS = {"十": 10, "百": 100, "千": 1000}
_NUMBER = re.compile(r"(\d+|[零〇一二两三四五六七八九十百千]+)")


def chinese_number(text: str) -> int:
    """The value of a Chinese numeral such as 十一, 二十, 一百零五, 两千 (digits only: 一二三 reads as 123)."""
    if not any(ch in _UNITS for ch in text):
        return int("".join(str(_DIGITS[ch]) for ch in text))
    total, digit = 0, None
    for ch in text:
        if ch in _DIGITS:
            digit = _DIGITS[ch]
        else:
            total += (1 if digit is None else digit) * _UNITS[ch]
            digit = None
    return total + (digit or 0)


def natural_key(name) -> tuple:
    """A sort key: text parts compared as text, number parts (Arabic or Chinese) compared as numbers."""
    parts = []
    for i, piece in enumerate(_NUMBER.split(str(name or ""))):
        if i % 2:
            parts.append((0, int(piece) if piece.isdigit() else chinese_number(piece), piece))
        elif piece:
            parts.append((1, 0, piece))
    return tuple(parts)

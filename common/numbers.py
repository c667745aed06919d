"""Whole numbers typed by people or sent in forms and addresses: ASCII digits only and bounded.

``str.isdigit()`` is true for "²" and "١" (which ``int()`` refuses or reads as another digit) and a
20-digit id overflows PostgreSQL's bigint: both answered 500 before. :func:`whole` reads such text as
"not a number" instead, for the caller to refuse with its own reason.
"""
from __future__ import annotations

#: Past any real id, count or seed (and inside PostgreSQL's bigint and a JSON number's exact range).
MOST = 2**53


def whole(text, most: int = MOST) -> int | None:
    """The whole number 0..``most`` that ``text`` spells in ASCII digits, else None."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if 0 <= text <= most else None
    text = str(text if text is not None else "").strip()
    if not text or len(text) > 16 or not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if value <= most else None

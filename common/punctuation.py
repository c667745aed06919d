"""The punctuation between the parts of a text in a language: full width on a Chinese page. Pure: the caller
passes the active language (``django.utils.translation.get_language()``), so a template tag
(``tournament.templatetags.names``) and a message a page builds in Python say it the same way."""
from __future__ import annotations


def chinese(language: str | None) -> bool:
    """True for a Chinese language code, and when none is active (Chinese first)."""
    return (language or "zh").startswith("zh")


def colon(language: str | None) -> str:
    """The colon after a label: "：" in Chinese ("胜方："), ": " otherwise."""
    return "：" if chinese(language) else ": "


def list_separator(language: str | None) -> str:
    """Between the items of a list of names: "、" in Chinese, ", " otherwise."""
    return "、" if chinese(language) else ", "

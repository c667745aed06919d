"""A person's name as the pages and printouts show it. Pure Python (a user is read through its attributes).

``clean_name(text)``: a name as typed or imported, its spaces normalised: every run of spaces (the full-width
space 　 included) one space, none at the ends, none between two Chinese characters ("杜　军" -> "杜军").

``display_name(user)``: a Chinese (or Japanese, Korean) name is written family name first with no space
(last_name="王", first_name="明" -> "王明"), where Django's ``get_full_name()`` gives "明 王"; any other
name is "first last"; an account without a name is shown by its login name; no user gives "". An account
that stands for no person (:data:`ACCOUNT_LABELS`: the players' account a confirmed players' hand is recorded
under) is named by its label in the active language.

``unit_and_team(unit, team)``: an entry's unit and team as one line ("市教育局 · 一队"); a team named as its unit
(a unit's registration names its team after the unit) is not written twice ("市教育局", never "市教育局 · 市教育局").
"""
from __future__ import annotations

import re

from common.errors import gettext_noop, translated

#: The players' account (``tournament.selfscore.players``): a hand one side entered and the other confirmed.
PLAYERS_LOGIN = "~players"
#: Accounts that stand for no person, by login name: their name on the pages, translated when shown.
ACCOUNT_LABELS = {PLAYERS_LOGIN: gettext_noop("Players (entered and confirmed)")}

# CJK ideographs (with extension A, the compatibility block and the supplementary planes), 〇, kana, Hangul
_CJK = re.compile("[\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003ffff]")


def has_cjk(text: str) -> bool:
    """Whether the text holds a Chinese, Japanese or Korean character."""
    return bool(_CJK.search(text or ""))


_CJK_SPACE = re.compile(f"(?<={_CJK.pattern}) (?={_CJK.pattern})")


def clean_name(text) -> str:
    """A name with its spaces normalised (see the module's note); "" for None."""
    spaced = " ".join(str(text or "").split())
    return _CJK_SPACE.sub("", spaced)


def full_name(first: str, last: str) -> str:
    """The two parts of a name in the order their script writes them ("" when both are empty)."""
    first, last = (first or "").strip(), (last or "").strip()
    if has_cjk(first) or has_cjk(last):
        return last + first
    return " ".join(part for part in (first, last) if part)


def display_name(user) -> str:
    """How a person is named on pages and printouts: the name in its script's order, else the login name."""
    if user is None:
        return ""
    label = ACCOUNT_LABELS.get(getattr(user, "username", None))
    if label is not None:
        return translated(label)
    name = full_name(getattr(user, "first_name", ""), getattr(user, "last_name", ""))
    if name:
        return name
    username = user.get_username() if hasattr(user, "get_username") else getattr(user, "username", "")
    return username or ""


def unit_and_team(unit, team) -> str:
    """"unit · team", or the unit alone when there is no team or the team bears the unit's name."""
    unit, team = clean_name(unit), clean_name(team)
    if not team or team == unit:
        return unit
    return f"{unit} · {team}" if unit else team

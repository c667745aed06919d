"""``{{ user|display_name }}``: a person as the pages name them (``common.names.display_name``: a Chinese
name family name first without a space, else "first last", else the login name). ``{{ text|seat_names }}``:
the seat and side codes of a text in the active language's words (北/东/南/西, 南北/东西 on Chinese pages;
``common.seats.zh_seats``), for texts stored with the codes (explanations). ``{{ match.result_note|note_words }}``:
a match's stored result note in the page's language (``tournament.records.notes.note_words``).
``{{ match.ns_source|source_words }}``: where a side still to be decided comes from, in the page's language
("第2轮第1场胜者", "A组第1名": ``tournament.competition.stages.describe_source``), never the stored code ("W:R2-M1");
``{{ match.bracket_key|bracket_position }}`` a knock-out match's position in words ("第1轮第2场").
``{{ unit|unit_team:team }}``: an entry's unit and team, the team left out when it bears the unit's name
(``common.names.unit_and_team``). ``{{ match|side_words:"ns" }}``: a side of a match: its pair, else where it comes
from, else (a bye's empty side) the word for a bye; never "None"."""
from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from common import punctuation
from common.names import display_name as _display_name
from common.names import unit_and_team
from common.seats import zh_seats
from tournament.competition.stages import describe_key, describe_source
from tournament.records.notes import note_words as _note_words

register = template.Library()


@register.filter
def display_name(user):
    return _display_name(user)


@register.filter
def unit_team(unit, team):
    """``team``: a team's name, a Team or None."""
    return unit_and_team(unit, getattr(team, "name", team))


@register.filter
def side_words(match, side):
    return match.side_words(side)


@register.filter
def seat_names(text):
    return zh_seats(text) if (get_language() or "").startswith("zh") else text


@register.filter
def note_words(note):
    return _note_words(note)


@register.filter
def source_words(code):
    return describe_source(code or "")


@register.filter
def bracket_position(key):
    return describe_key(key or "")


def _chinese() -> bool:
    return punctuation.chinese(get_language())


@register.simple_tag
def colon():
    """The colon after a label: full width on a Chinese page ("胜方："), ": " on an English one."""
    return punctuation.colon(get_language())


@register.simple_tag
def listsep():
    """Between the items of a list of names: "、" on a Chinese page, ", " on an English one."""
    return punctuation.list_separator(get_language())


@register.simple_tag
def semicolon():
    """Between the lines of an explanation shown on one line: "；" on a Chinese page, "; " on an English one."""
    return "；" if _chinese() else "; "


@register.simple_tag
def word_gap():
    """Between two sentences (or after a label's colon): " " on an English page, nothing on a Chinese one."""
    return "" if _chinese() else " "


@register.simple_tag
def full_stop():
    """The end of a sentence the template closes itself: "。" on a Chinese page, "." on an English one."""
    return "。" if _chinese() else "."


@register.simple_tag
def open_paren():
    return "（" if _chinese() else " ("


@register.simple_tag
def close_paren():
    return "）" if _chinese() else ")"


@register.filter
def listjoin(items):
    """``items`` joined by :func:`listsep` (escaped as ``join`` would)."""
    return mark_safe(listsep().join(str(conditional_escape(item)) for item in items))  # noqa: S308 (escaped)

"""A rule profile's own texts (a clause, an option's or a reading's label, a note, an offence's name) in the
active language: the English twin a profile gives (``clause_en`` beside ``clause``), else the shipped files'
twin of the same text.

    in_language(node, key) -> str           a profile text in the active language
    english_words(data) -> {Chinese: English}   the profile's texts with an English twin, to read a record back
    known_words(data) -> {Chinese: English}     the same over the shipped files' (for an older version)

Below every app: the result service's standings, the rulings' and the scoring's pages read these texts, and
none of them may import another's package both ways (the ``one-way-apps`` contract).
"""
from __future__ import annotations

import functools
from pathlib import Path

import yaml
from django.conf import settings
from django.utils.translation import get_language

#: The shipped profile files (``scoring.profile_store`` stores them as versions).
PROFILE_DIR = Path(settings.BASE_DIR) / "fixtures" / "profiles"
#: The texts of a profile that may have an English twin (``clause_en`` beside ``clause``).
TWINNED = ("name", "clause", "label", "note", "part")


def english_page() -> bool:
    """Is the active language other than Chinese (an English page)?"""
    return not (get_language() or "zh").startswith("zh")


def in_language(node, key) -> str:
    """A profile's text ``node[key]`` (a clause, an option's or a reading's label, a note, an offence's name)
    in the active language: on an English page its English twin ``node[key + "_en"]`` when the profile gives
    one, else the shipped files' twin of the same text (a version stored before the twins were written, or
    an organiser's copy), else the text as written ("" when the node has neither)."""
    text = node.get(key) or ""
    if not english_page():
        return text
    return node.get(f"{key}_en") or shipped_words((key,)).get(text, text)


def known_words(data, keys=TWINNED) -> dict:
    """:func:`english_words` of ``data`` over the shipped files' (:func:`shipped_words`): the English for the
    texts a stored version quotes, its own twins first."""
    return {**shipped_words(tuple(keys)), **english_words(data, keys)}


@functools.cache
def shipped_words(keys=TWINNED) -> dict:
    """:func:`english_words` of every profile file (their organiser choices' readings too), read once per
    process."""
    words = {}
    for path in sorted(PROFILE_DIR.glob("*.yaml")):
        words.update(english_words(yaml.safe_load(path.read_text(encoding="utf-8")), keys))
    return words


def english_words(data, keys=TWINNED) -> dict:
    """{Chinese text: its English twin} for every twinned text (of ``keys``) of a profile's ``data`` (or any
    part of it), to read back a record that quotes them (a ruling's stored clause, a sanction's explanation)."""
    words, nodes = {}, [data]
    while nodes:
        node = nodes.pop()
        if isinstance(node, dict):
            words.update({node[key]: node[f"{key}_en"] for key in keys
                          if isinstance(node.get(key), str) and isinstance(node.get(f"{key}_en"), str)})
            nodes.extend(node.values())
        elif isinstance(node, list):
            nodes.extend(node)
    return words

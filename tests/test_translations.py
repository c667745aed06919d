"""Every user-facing string goes through translation, and the Chinese catalogue is complete and compiled."""
import re
from pathlib import Path

import polib
import pytest

from tests.conftest import REPO

SOURCE_DIRS = ["common", "config", "demo", "infra", "tournament", "scoring", "rulings", "templates"]
PY_CALL = re.compile(r"""\b(?:_|gettext|gettext_lazy|gettext_noop|pgettext_lazy)\(\s*(?P<q>["'])(?P<s>(?:\\.|(?!(?P=q)).)+)(?P=q)\s*[,)]""")
TEMPLATE_TAG = re.compile(r"""{%\s*(?:translate|trans)\s+(?P<q>["'])(?P<s>.+?)(?P=q)""")


def catalogues():
    return sorted(p for p in REPO.glob("**/locale/zh_Hans/LC_MESSAGES/django.po") if ".venv" not in p.parts)


def translated_msgids():
    msgids = {}
    for path in catalogues():
        for entry in polib.pofile(str(path)):
            if not entry.obsolete:
                msgids[entry.msgid] = entry.msgstr
    return msgids


def source_strings():
    for folder in SOURCE_DIRS:
        for path in (REPO / folder).rglob("*"):
            if "migrations" in path.parts or path.suffix not in (".py", ".html", ".txt"):
                continue
            text = path.read_text(encoding="utf-8")
            pattern = PY_CALL if path.suffix == ".py" else TEMPLATE_TAG
            for match in pattern.finditer(text):
                found = match.group("s").encode().decode("unicode_escape") if "\\" in match.group("s") \
                    else match.group("s")
                # Django's catalogue key of a {% translate %} string doubles its percent signs (templatize)
                yield path.relative_to(REPO), found.replace("%", "%%") if path.suffix != ".py" else found


def test_catalogue_exists():
    assert catalogues(), "locale/zh_Hans/LC_MESSAGES/django.po is missing"


ALIAS = re.compile(r"\b(?:n|p|np)?gettext(?:_lazy|_noop)? as (?!_\b)(?P<name>\w+)")


def test_translation_functions_keep_names_makemessages_extracts():
    """A translation function imported as another name than ``_`` (``gettext_lazy as _l``) hides its strings from
    makemessages and from the check below: the clock settings' choices read "Inherit", "Yes", "No"."""
    aliased = sorted(f"{path.relative_to(REPO)}: {m.group(0)}" for folder in SOURCE_DIRS
                     for path in (REPO / folder).rglob("*.py") if "migrations" not in path.parts
                     for m in ALIAS.finditer(path.read_text(encoding="utf-8")))
    assert not aliased, "\n".join(aliased)


def test_every_source_string_has_a_chinese_translation():
    msgids = translated_msgids()
    missing = sorted({f"{path}: {s!r}" for path, s in source_strings() if not msgids.get(s)})
    assert not missing, "untranslated (run makemessages and fill zh_Hans):\n" + "\n".join(missing)


@pytest.mark.parametrize("po_path", catalogues(), ids=lambda p: str(p.relative_to(REPO)))
def test_catalogue_complete_and_compiled(po_path):
    po = polib.pofile(str(po_path))
    assert not po.untranslated_entries() and not po.fuzzy_entries()
    mo_path = po_path.with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path} missing: run make messages"
    def entries(catalogue):
        return {(e.msgid, e.msgid_plural): (e.msgstr, tuple(sorted(e.msgstr_plural.items())))
                for e in catalogue if e.msgid and not e.obsolete}

    assert entries(polib.mofile(str(mo_path))) == entries(po)

"""Compile the zh_Hans catalogues (.po → .mo) with polib, so no GNU gettext is needed to build them.

``--merge-parts`` first fills empty translations in locale/zh_Hans from the TSV files under
locale/parts/ (``English msgid<TAB>中文`` per line), which is how new strings arrive from a branch of
work; run ``makemessages -l zh_Hans`` before it so the catalogue knows every new msgid.
"""
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogue_paths():
    """Every django.po under locale/ and the apps' locale/ folders."""
    base = Path(settings.BASE_DIR)
    return sorted(p for p in base.glob("**/locale/*/LC_MESSAGES/django.po") if ".venv" not in p.parts)


def read_parts(folder):
    pairs = {}
    for path in sorted(Path(folder).glob("*.tsv")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "\t" in line and not line.startswith("#"):
                msgid, msgstr = line.split("\t", 1)
                pairs[msgid] = msgstr.strip()
    return pairs


class Command(BaseCommand):
    help = "Compile the translation catalogues (.po → .mo)."

    def add_arguments(self, parser):
        parser.add_argument("--merge-parts", action="store_true", help="fill from locale/parts/*.tsv first")

    def handle(self, *args, merge_parts=False, **options):
        parts = read_parts(Path(settings.BASE_DIR) / "locale" / "parts") if merge_parts else {}
        for po_path in catalogue_paths():
            po = polib.pofile(str(po_path))
            for entry in po:
                if entry.msgid in parts and (not entry.translated() or "fuzzy" in entry.flags):
                    if entry.msgid_plural:  # Chinese has a single plural form
                        entry.msgstr_plural = {0: parts[entry.msgid]}
                    else:
                        entry.msgstr = parts[entry.msgid]
                    if "fuzzy" in entry.flags:
                        entry.flags.remove("fuzzy")
            po.save()
            po.save_as_mofile(str(po_path.with_suffix(".mo")))
            missing = [e.msgid for e in po.untranslated_entries()] + [e.msgid for e in po.fuzzy_entries()]
            self.stdout.write(f"{po_path.relative_to(settings.BASE_DIR)}: {len(missing)} untranslated")
            for msgid in missing:
                self.stdout.write(f"  {msgid!r}")

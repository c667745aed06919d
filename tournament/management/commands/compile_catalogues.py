"""Compile every zh_Hans/en .po catalogue to .mo with polib (no GNU gettext needed)."""
from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


def catalogue_paths():
    """Every django.po under locale/ and the apps' locale/ folders."""
    base = Path(settings.BASE_DIR)
    return sorted(p for p in base.glob("**/locale/*/LC_MESSAGES/django.po") if ".venv" not in p.parts)


class Command(BaseCommand):
    help = "编译翻译目录 (.po → .mo)。Compile translation catalogues."

    def handle(self, *args, **options):
        for po_path in catalogue_paths():
            polib.pofile(str(po_path)).save_as_mofile(str(po_path.with_suffix(".mo")))
            self.stdout.write(str(po_path.relative_to(settings.BASE_DIR)))

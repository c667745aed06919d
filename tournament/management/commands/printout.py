"""``python manage.py printout KIND --event SLUG --output FILE.pdf``: a printout from the command line."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from common.errors import UserError
from tournament.printouts.common import PrintOptions
from tournament.printouts.registry import PRINTOUTS, get_printout
from tournament.printouts.services import build_printout, find_event


class Command(BaseCommand):
    help = "Print a PDF (kinds: " + ", ".join(PRINTOUTS) + ")."

    def add_arguments(self, parser):
        parser.add_argument("kind", help="printout kind: " + ", ".join(PRINTOUTS))
        parser.add_argument("--event", required=True, help="event slug")
        parser.add_argument("--output", required=True, help="PDF file to write")
        parser.add_argument("--round", help="round id (score sheets, schedule, results)")
        parser.add_argument("--match", help="match id (score sheet, result sheet, penalties)")
        parser.add_argument("--lang", default="zh-hans", help="zh-hans (default) or en")
        parser.add_argument("--site-url", default="", help="the site's public address for QR codes and links "
                            "(default: the SITE_URL setting), e.g. http://192.168.1.20:8000")

    def handle(self, *args, kind, event, output, round, match, lang, site_url="", **options):
        try:
            get_printout(kind)
            found = find_event(event)
            print_options = PrintOptions(round=round, match=match, lang=lang, site_url=site_url)
            pdf = build_printout(kind, found, print_options)
        except UserError as exc:  # the option at fault, then the reason in the active language
            raise CommandError(f"--{exc.field}: {exc}" if exc.field else str(exc)) from exc
        path = Path(output)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pdf)
        self.stdout.write(self.style.SUCCESS(f"{path} ({len(pdf)} bytes)"))

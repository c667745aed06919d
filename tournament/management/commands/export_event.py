"""``python manage.py export_event SLUG > event.json``: the whole event as one file (see README, 备份与迁移)."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from common.errors import UserError
from tournament.printouts.services import find_event
from tournament.transfer.services import export_text


class Command(BaseCommand):
    help = "Write the whole event (entries, draws, hands, rulings, appeals, clocks, staff) as one JSON file."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="event slug")
        parser.add_argument("--output", help="file to write (default: standard output)")

    def handle(self, *args, slug, output=None, **options):
        try:
            text = export_text(find_event(slug))
        except UserError as exc:
            raise CommandError(str(exc)) from exc
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"{output} ({len(text.encode('utf-8'))} bytes)")
        else:
            self.stdout.write(text, ending="")

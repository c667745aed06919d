"""``python manage.py import_event event.json [--slug NEW]``: create the event of an export file.

The installation's own tool (restoring a backup): the file's people are found by login name (a missing one is
created without a usable password), and a file giving a role to a site administrator's login name is refused.
An organiser's upload page instead maps each person to an account they may give roles, or a new one."""
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from common.errors import UserError
from tournament.transfer.services import import_event


class Command(BaseCommand):
    help = "Create an event from a file written by export_event (refused when its slug exists: give --slug)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the export file (- for standard input)")
        parser.add_argument("--slug", help="import the event under this new slug")

    def handle(self, *args, file, slug=None, **options):
        raw = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
        try:
            report = import_event(raw, slug=slug)
        except UserError as exc:
            raise CommandError(f"--{exc.field}: {exc}" if exc.field == "slug" else str(exc)) from exc
        rows = sum(report.rows.values())
        self.stdout.write(self.style.SUCCESS(
            f"{report.event.slug}: {rows} rows, ids {'kept' if report.kept_ids else 'renumbered'}"))
        if report.created_users:
            self.stdout.write("new accounts without a password (set one on the staff page): "
                              + ", ".join(report.created_users))

"""The base of the commands that check an event's derived facts against its records (``verify_replay``,
``verify_standings``): one event by its slug or every event, each mismatch printed, exit 1 if any."""
from django.core.management.base import BaseCommand, CommandError

from tournament.models import Event


class EventCheckCommand(BaseCommand):
    """A subclass says what it checks with its method ``check_one(event)`` → (a summary line, the mismatches);
    :meth:`handle` runs it for one event or every event."""

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="the event's slug (default: every event)")

    def handle(self, *args, slug=None, **options):
        events = Event.objects.select_related("profile").order_by("pk")
        if slug:
            events = events.filter(slug=slug)
            if not events.exists():
                raise CommandError(f"No event {slug!r}.")
        total = 0
        for event in events:
            summary, found = self.check_one(event)
            for mismatch in found:
                self.stdout.write(f"{event.slug}: {mismatch}")
            self.stdout.write(f"{event.slug}: {summary}")
            total += len(found)
        if total:
            raise SystemExit(1)

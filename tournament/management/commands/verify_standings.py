from django.core.management.base import BaseCommand, CommandError

from tournament.competition.ranking import check_event
from tournament.models import Event


class Command(BaseCommand):
    help = ("Rank every round-robin group of an event (every event without SLUG) again from its matches and "
            "compare with the kept standings the pages read; prints each mismatch, exits 1 if any.")

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
            found = check_event(event)
            for mismatch in found:
                self.stdout.write(f"{event.slug}: {mismatch}")
            self.stdout.write(f"{event.slug}: {len(found)} groups whose kept standings differ")
            total += len(found)
        if total:
            raise SystemExit(1)

from django.core.management.base import BaseCommand, CommandError

from scoring.replay_check import check_event
from tournament.models import Event


class Command(BaseCommand):
    help = ("Replay every match of an event (every event without SLUG) from its hands and rulings and compare "
            "with the stored levels, results and kept engine state; prints each mismatch, exits 1 if any.")

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="the event's slug (default: every event)")

    def handle(self, *args, slug=None, **options):
        events = Event.objects.order_by("pk")
        if slug:
            events = events.filter(slug=slug)
            if not events.exists():
                raise CommandError(f"No event {slug!r}.")
        total = 0
        for event in events:
            checked, found = check_event(event)
            for mismatch in found:
                self.stdout.write(f"{event.slug}: {mismatch}")
            self.stdout.write(f"{event.slug}: {checked} matches replayed, {len(found)} mismatches")
            total += len(found)
        if total:
            raise SystemExit(1)

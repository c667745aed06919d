from tournament.competition.group_standings import check_event
from tournament.management.event_command import EventCheckCommand


class Command(EventCheckCommand):
    help = ("Rank every round-robin group of an event (every event without SLUG) again from its matches and "
            "compare with the kept standings the pages read; prints each mismatch, exits 1 if any.")

    def check_one(self, event):
        found = check_event(event)
        return f"{len(found)} groups whose kept standings differ", found

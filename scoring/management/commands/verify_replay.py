from scoring.replay_check import check_event
from tournament.management.event_command import EventCheckCommand


class Command(EventCheckCommand):
    help = ("Replay every match of an event (every event without SLUG) from its hands and rulings and compare "
            "with the stored levels, results and kept engine state; prints each mismatch, exits 1 if any.")

    def check_one(self, event):
        checked, found = check_event(event)
        return f"{checked} matches replayed, {len(found)} mismatches", found

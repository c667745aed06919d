from django.core.management.base import BaseCommand

from scoring.profile_store import sync_profiles


class Command(BaseCommand):
    help = "Load the rule profile files under fixtures/profiles/ into the database (a changed file becomes a new version)."

    def handle(self, *args, **options):
        for profile in sync_profiles():
            self.stdout.write(f"{profile.slug} v{profile.version}")

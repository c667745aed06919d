from django.core.management.base import BaseCommand

from scoring.profile_store import sync_profiles


class Command(BaseCommand):
    help = "把 fixtures/profiles/ 下的规则配置文件载入数据库（变更的文件成为新版本）。Load rule profile files."

    def handle(self, *args, **options):
        for profile in sync_profiles():
            self.stdout.write(f"{profile.slug} v{profile.version}")

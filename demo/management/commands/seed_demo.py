from django.core.management.base import BaseCommand

from demo.event import seed_demo


class Command(BaseCommand):
    help = "Create the demo event (slug demo) and an account for every role (idempotent)."

    def handle(self, *args, **options):
        event, accounts = seed_demo(more_events=True)
        self.stdout.write(self.style.SUCCESS(f"Demo event: {event.name} (/events/{event.slug}/)"))
        self.stdout.write("Swiss demo: /events/demo-swiss/swiss/ · unit standings: /events/demo-union/units/")
        self.stdout.write("演示账号 Demo accounts (用户名 / 密码 / 角色):")
        for username, password, _role, display in accounts:
            self.stdout.write(f"  {username:<10} {password:<16} {display}")

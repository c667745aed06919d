from django.core.management.base import BaseCommand

from demo.event import seed_demo


class Command(BaseCommand):
    help = "创建演示赛事（slug demo）与各角色演示账号；可重复运行。Create the demo event and accounts (idempotent)."

    def handle(self, *args, **options):
        event, accounts = seed_demo(more_events=True)
        self.stdout.write(self.style.SUCCESS(f"演示赛事 Demo event: {event.name} (/events/{event.slug}/)"))
        self.stdout.write("瑞士制演示 Swiss demo: /events/demo-swiss/swiss/ · 团体总分演示 Unit standings: /events/demo-union/units/")
        self.stdout.write("演示账号 Demo accounts (用户名 / 密码 / 角色):")
        for username, password, _role, display in accounts:
            self.stdout.write(f"  {username:<10} {password:<16} {display}")

from django.core.management.base import BaseCommand, CommandError

from demo.remove import DemoInUse, remove_demo


class Command(BaseCommand):
    help = ("Delete the demo events (demo, demo-swiss, demo-union) and the demo accounts, whose passwords the "
            "README publishes; refused while a demo account holds a role in a real event.")

    def handle(self, *args, **options):
        try:
            removed = remove_demo()
        except DemoInUse as exc:
            raise CommandError(str(exc)) from exc
        for line in removed.kept:
            self.stdout.write(f"保留（有真实主办方）Kept (it has organisers of its own): {line}")
        if not removed.events and not removed.accounts:
            self.stdout.write("没有演示数据。No demo data here.")
            return
        for line in removed.events:
            self.stdout.write(f"已删除演示赛事 Demo event removed: {line}")
        if removed.accounts:
            self.stdout.write("已删除演示账号 Demo accounts removed: " + ", ".join(removed.accounts))
        self.stdout.write(self.style.SUCCESS("演示数据已删除。The demo is gone."))

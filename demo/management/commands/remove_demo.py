from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

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
            self.stdout.write(_("Kept (it has organisers of its own): %(event)s") % {"event": line})
        if not removed.events and not removed.accounts:
            self.stdout.write(_("No demo data here."))
            return
        for line in removed.events:
            self.stdout.write(_("Demo event removed: %(event)s") % {"event": line})
        if removed.accounts:
            self.stdout.write(_("Demo accounts removed: %(accounts)s") % {"accounts": ", ".join(removed.accounts)})
        self.stdout.write(self.style.SUCCESS(_("The demo is gone.")))

"""Print how to make a fresh install's first site administrator in the browser (``make run`` runs this
before serving): the set-up page's address and its setup code, while the site has no administrator."""
from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from tournament.staff import first_run


class Command(BaseCommand):
    help = "Print the first-time set-up page's address and setup code while the site has no administrator."

    def add_arguments(self, parser):
        parser.add_argument("--address", default=settings.SITE_URL, help="the site's address (default SITE_URL)")

    def handle(self, *args, address, **options):
        if not first_run.needed():
            return
        code = first_run.issue_code()
        self.stdout.write(_("First-time set-up: open %(address)s and give the setup code %(code)s to make the "
                            "site administrator.") % {"address": address.rstrip("/") + "/setup/", "code": code})

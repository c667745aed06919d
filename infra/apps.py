from django.apps import AppConfig
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from common.errors import install_translator


class InfraConfig(AppConfig):
    """Project infrastructure shared by every app (idempotency keys, files in the database, the user-error
    translator)."""

    name = "infra"
    # The label the code had while it lived in config/: its tables (config_idempotencyrecord,
    # config_storedfile), the rows of django_migrations (app "config") and the other apps' migrations that
    # depend on ("config", "000N_...") all name the app by its label, so keeping it leaves every existing
    # database and the migration history valid without a rename migration.
    label = "config"
    verbose_name = _("System")

    def ready(self):
        install_translator(gettext, get_language)  # user errors raised by pure code read in the active language

from django.apps import AppConfig
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common.errors import install_translator


class ConfigAppConfig(AppConfig):
    """Project infrastructure shared by every app (idempotency keys, the user-error translator)."""

    name = "config"
    label = "config"
    verbose_name = _("System")

    def ready(self):
        install_translator(gettext)  # user errors raised by pure code read in the active language

from django.apps import AppConfig
from django.utils.translation import gettext

from common.errors import install_translator


class ConfigAppConfig(AppConfig):
    """Project infrastructure shared by every app (idempotency keys)."""

    name = "config"
    label = "config"
    verbose_name = "系统 (System)"

    def ready(self):
        install_translator(gettext)  # UserError messages (English msgids) read in the active language

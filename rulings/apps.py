from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulingsConfig(AppConfig):
    name = "rulings"
    verbose_name = _("Rulings")

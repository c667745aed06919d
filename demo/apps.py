from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """Demo data for a fresh install (``python manage.py seed_demo``): one place for every area's demo."""

    name = "demo"
    verbose_name = _("Demo data")

from django.apps import AppConfig


class DemoConfig(AppConfig):
    """Demo data for a fresh install (``python manage.py seed_demo``): one place for every area's demo."""

    name = "demo"
    verbose_name = "演示数据 (Demo)"

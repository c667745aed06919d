from django.apps import AppConfig


class RulingsConfig(AppConfig):
    name = "rulings"
    verbose_name = "判罚 (Rulings)"

from django.apps import AppConfig


class ConfigAppConfig(AppConfig):
    """Project infrastructure shared by every app (idempotency keys)."""

    name = "config"
    label = "config"
    verbose_name = "系统 (System)"

from django.apps import AppConfig
from django.db.models.signals import post_save
from django.utils.translation import gettext_lazy as _


class RulingsConfig(AppConfig):
    name = "rulings"
    verbose_name = _("Rulings")

    def ready(self):
        """A ruling, void, approval, choice or appeal decision saved outside a write that keeps the match's
        state itself drops that state (``tournament.records.snapshots``), as a hand does (``scoring.apps``)."""
        # models and services are not importable before the apps are ready (Django's app loading)
        from rulings.models import AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid  # noqa: PLC0415
        from tournament.records.snapshots import drop_on_write  # noqa: PLC0415

        for model in (Ruling, RulingVoid, Approval, ChoiceMade, AppealDecision):
            post_save.connect(drop_on_write, sender=model, dispatch_uid=f"snapshot-drop-{model.__name__}")

from django.apps import AppConfig
from django.db.models.signals import post_delete, post_save
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Scoring and rules")

    def ready(self):
        """A hand saved outside a write that keeps the match's state itself drops that state
        (``tournament.records.snapshots``; the rulings app connects its own rows); a rule-profile version saved
        or deleted drops the process's copies of the versions."""
        # models and services are not importable before the apps are ready (Django's app loading)
        from scoring.models import Hand, RuleProfile  # noqa: PLC0415
        from scoring.profile_store import forget_shared  # noqa: PLC0415
        from tournament.records.snapshots import drop_on_write  # noqa: PLC0415

        post_save.connect(drop_on_write, sender=Hand, dispatch_uid="snapshot-drop-Hand")
        # the process's copies of the rule-profile versions (scoring.profile_store.shared_version)
        for signal in (post_save, post_delete):
            signal.connect(forget_shared, sender=RuleProfile, dispatch_uid=f"profile-forget-{signal is post_save}")

from django.apps import AppConfig
from django.db.models.signals import m2m_changed
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournament")

    def ready(self):
        # the services import the models, so the guard is connected once the app registry is ready
        from tournament.competition.referees import guard_referee_units  # noqa: PLC0415
        from tournament.models import Match  # noqa: PLC0415

        m2m_changed.connect(guard_referee_units, sender=Match.referees.through,
                            dispatch_uid="competition_referee_unit_rule")

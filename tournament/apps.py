from django.apps import AppConfig
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournament")

    def ready(self):
        # the services import the models, so the guard is connected once the app registry is ready
        from tournament.competition.referees import guard_referee_units, referees_changed  # noqa: PLC0415
        from tournament.models import Match  # noqa: PLC0415

        m2m_changed.connect(guard_referee_units, sender=Match.referees.through,
                            dispatch_uid="competition_referee_unit_rule")
        m2m_changed.connect(referees_changed, sender=Match.referees.through,
                            dispatch_uid="competition_referees_changed")
        # the search index of an event is dropped when a name in it changes (cycle: the search module
        # imports the models, which are not ready before this method runs)
        from tournament.competition import search  # noqa: PLC0415

        for model in search.WATCHED:
            for signal in (post_save, post_delete):
                signal.connect(search.names_changed, sender=model, dispatch_uid=f"find_index_{model.__name__}")
        # the cached public pages of an event follow the rows they show (cycle: as above, the module imports
        # the models)
        from tournament import pagecache  # noqa: PLC0415

        for model in pagecache.WATCHED:
            signals = (post_save,) if model in pagecache.SAVE_ONLY else (post_save, post_delete)
            for signal in signals:
                signal.connect(pagecache.row_written, sender=model, dispatch_uid=f"pagecache_{model.__name__}")
        # a Match saved anywhere but the result service drops its group's kept standings (cycle: as above)
        from tournament.competition import group_standings  # noqa: PLC0415

        post_save.connect(group_standings.match_saved, sender=Match, dispatch_uid="kept_standings_match_saved")

from django.apps import AppConfig


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "赛事 (Tournament)"

    def ready(self):
        from . import printout_tasks  # noqa

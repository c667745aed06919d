"""The project's Celery app for the killed-worker test, with every printed sheet slowed down
(``SLOW_SHEET_SECONDS``) so that the test can kill the worker in the middle of a build."""
import os
import time

from celery.signals import task_prerun

from config.celery import app  # noqa: F401  (celery -A tests.tournament.slow_celery finds it here)


@task_prerun.connect
def _slow_sheets(**_kwargs):
    from tournament.printouts import services  # noqa: PLC0415 (Django is set up only once the worker runs)

    if getattr(services.render, "slowed", False):
        return
    real = services.render
    pause = float(os.environ.get("SLOW_SHEET_SECONDS", "1"))

    def render(printout, data, options, progress=None):
        def report(done, total):
            time.sleep(pause)
            if progress is not None:
                progress(done, total)

        return real(printout, data, options, report)

    render.slowed = True
    services.render = render

"""The Celery application. Tasks live in ``tasks.py`` beside the service they run (one per area)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tractor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["config", "tournament.clocks", "tournament.printouts"])

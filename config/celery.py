"""The Celery application. Tasks live in ``tasks.py`` beside the service they run (one per area)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("tractor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["infra", "tournament.clocks", "tournament.printouts", "tournament.transfer"])

# Every task, and why running it twice (a redelivery after a lost worker, a duplicate) is harmless. The
# settings acknowledge late and reject on a lost worker for all of them; a new task must be added here
# (tests/test_celery_resilience.py checks the list against the registered tasks).
IDEMPOTENT_TASKS = {
    "config.ping": "answers its argument, writes nothing",
    "config.purge_idempotency_records": "deletes what is older than a day; a second run finds nothing",
    "tournament.fire_round_clock": "fires only what is due and not fired yet (one row per round and kind)",
    "tournament.sweep_clocks": "the same check for every running round",
    "tournament.build_print_job": "claims the job under a row lock; a running, done or failed job is left alone",
    "tournament.sweep_print_jobs": "requeues only stale jobs, under SKIP LOCKED; a requeued job is not stale",
    "tournament.snapshot_events": "writes only what is an interval old; a second run finds its own file fresh",
}

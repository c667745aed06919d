"""Celery tasks for printouts: thin wrappers around :mod:`tournament.printouts.services` (found by the
Celery app's autodiscovery, ``config/celery.py``)."""
from celery import shared_task
from django.db import OperationalError


@shared_task(name="tournament.build_print_job", autoretry_for=(OperationalError,), retry_backoff=True,
             max_retries=3)
def build_print_job(job_id):
    """Build print job ``job_id`` (idempotent: a running, done or failed job is left as it is)."""
    from tournament.printouts.services import run_job  # noqa: PLC0415 (cycle: the services send this task)

    job = run_job(job_id)
    return {"job": job.pk, "status": job.status}

"""Celery tasks for printouts: thin wrappers around :mod:`tournament.printouts.services` (found by the
Celery app's autodiscovery, ``config/celery.py``). The services send the build by name (``BUILD_PRINT_JOB``),
so this module imports the services and not back.

Both are idempotent, so they run with late acknowledgement and reject-on-worker-lost (settings): a worker
killed mid-build gives the message back to the broker. A killed build also stops writing its job's
heartbeat; the beat sweep requeues such a job (exactly once) and another worker finishes it.
"""
from celery import shared_task
from django.db import OperationalError

from tournament.printouts.services import BUILD_PRINT_JOB, requeue_stale_jobs, run_job


@shared_task(name=BUILD_PRINT_JOB, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3)
def build_print_job(job_id):
    """Build print job ``job_id`` (idempotent: a running, done or failed job is left as it is)."""
    job = run_job(job_id)
    return {"job": job.pk, "status": job.status}


@shared_task(name="tournament.sweep_print_jobs", autoretry_for=(OperationalError,), retry_backoff=True,
             max_retries=3)
def sweep_print_jobs():
    """Beat: requeue the print jobs whose worker died (no heartbeat) or whose task was lost (idempotent)."""
    return {"requeued": requeue_stale_jobs()}

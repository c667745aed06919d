"""Celery tasks for printouts: thin wrappers around :mod:`tournament.printout_services`.

Registered from ``TournamentConfig.ready()`` (``tournament/tasks.py`` belongs to another area).
"""
from celery import shared_task
from django.db import OperationalError


@shared_task(name="tournament.build_print_job", autoretry_for=(OperationalError,), retry_backoff=True,
             max_retries=3)
def build_print_job(job_id):
    """Build print job ``job_id`` (idempotent: a running, done or failed job is left as it is)."""
    from .printout_services import run_job

    job = run_job(job_id)
    return {"job": job.pk, "status": job.status}

"""Infrastructure tasks.

Their names keep the app's label, ``config`` (see ``apps.py``), not the package's: a message already queued
and the beat schedule name them so, and the worker finds them by these names.
"""
from celery import shared_task

from .idempotency import purge_old_records


@shared_task(name="config.ping")
def ping(value):
    """Echo a value back: proves that a worker is consuming from the configured broker."""
    return {"pong": value}


@shared_task(name="config.purge_idempotency_records")
def purge_idempotency_records():
    """Hourly (beat): forget stored API answers older than a day."""

    return purge_old_records()

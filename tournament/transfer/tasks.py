"""Celery task of the event snapshots: a thin, idempotent wrapper around :mod:`tournament.transfer.snapshots`
(a second run in the same interval finds nothing due)."""
from celery import shared_task
from django.db import DatabaseError, OperationalError

from tournament.transfer.snapshots import snapshot_due


@shared_task(name="tournament.snapshot_events", autoretry_for=(OperationalError, DatabaseError, OSError),
             retry_backoff=True, max_retries=3)
def snapshot_events():
    return [path.name for path in snapshot_due()]

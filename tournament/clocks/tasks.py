"""Celery tasks of the hall clocks: thin, idempotent wrappers around tournament.clocks.services.

They take ids, never objects. A duplicated, late or lost task is harmless: firing checks what is
due and what has fired already (unique rows), and the beat sweep catches anything a task missed.
The services send them by name (``FIRE_ROUND_CLOCK``), so this module imports the services and not back.
"""
from celery import shared_task
from django.db import DatabaseError, OperationalError

from tournament.clocks.services import FIRE_ROUND_CLOCK, fire_due, sweep

TRANSIENT = (OperationalError, DatabaseError, ConnectionError)


@shared_task(name=FIRE_ROUND_CLOCK, autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def fire_round_clock(round_id, key=""):
    """Fire whatever of round ``round_id`` is due (``key`` says which schedule sent it: for the logs)."""
    return fire_due(round_id, via=f"task:{key}" if key else "task")


@shared_task(name="tournament.sweep_clocks", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def sweep_clocks():
    """Beat, every 15 s: re-check every running clock and fire what is due and not yet fired."""
    return {str(round_id): fired for round_id, fired in sweep().items()}

"""Celery tasks of the hall clocks: thin, idempotent wrappers around tournament.clocks.services.

They take ids, never objects. A duplicated, late or lost task is harmless: firing checks what is
due and what has fired already (unique rows), and the beat sweep catches anything a task missed.
"""
from celery import shared_task
from django.db import DatabaseError, OperationalError

TRANSIENT = (OperationalError, DatabaseError, ConnectionError)


@shared_task(name="tournament.fire_round_clock", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=5)
def fire_round_clock(round_id, key=""):
    """Fire whatever of round ``round_id`` is due (``key`` says which schedule sent it: for the logs)."""
    from tournament.clocks.services import fire_due  # noqa: PLC0415 (cycle: the services send these tasks)

    return fire_due(round_id, via=f"task:{key}" if key else "task")


@shared_task(name="tournament.sweep_clocks", autoretry_for=TRANSIENT, retry_backoff=True, max_retries=3)
def sweep_clocks():
    """Beat, every 15 s: re-check every running clock and fire what is due and not yet fired."""
    from tournament.clocks.services import sweep  # noqa: PLC0415 (cycle: the services send these tasks)

    return {str(round_id): fired for round_id, fired in sweep().items()}

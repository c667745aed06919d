"""Infrastructure tasks."""
from celery import shared_task


@shared_task(name="config.ping")
def ping(value):
    """Echo a value back: proves that a worker is consuming from the configured broker."""
    return {"pong": value}

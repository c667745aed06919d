"""The hall display's shared cache key: dropped by every write that changes what a display shows.

Kept apart from the display builder so the writers (clock, results) can invalidate it without
importing what builds it.
"""
from django.core.cache import cache


def display_key(round_id) -> str:
    return f"clock:display:{round_id}"


def invalidate(round_id) -> None:
    """Drop the cached display data of a round (after clock events, firings and results)."""
    cache.delete(display_key(round_id))

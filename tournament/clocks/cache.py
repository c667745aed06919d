"""The hall display's shared cache key: dropped by every write that changes what a display shows.

Kept apart from the display builder so the writers (clock, results) can invalidate it without
importing what builds it.

    invalidate(round_id)        the round changed (its clock, a closure, a bye): rebuilt whole
    tables_changed(round_id)    only its tables' results moved (a hand, a ruling: ``results.settle``): the
                                rebuild reads again the tables changed since the last one
"""
from django.core.cache import cache


def display_key(round_id) -> str:
    return f"clock:display:{round_id}"


def whole_key(round_id) -> str:
    """Set by :func:`invalidate`: the next rebuild reads every table, not only the changed ones."""
    return f"clock:display:{round_id}:whole"


def invalidate(round_id) -> None:
    """Drop the cached display data of a round, to be rebuilt whole (after clock events, firings, closing)."""
    cache.set(whole_key(round_id), 1, None)
    cache.delete(display_key(round_id))


def tables_changed(round_id) -> None:
    """Drop the cached display data of a round after a write that changed its tables' Match rows only (they
    moved their ``changed_at``): the rebuild reads those tables again and keeps the others' rows."""
    cache.delete(display_key(round_id))

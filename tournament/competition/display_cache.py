"""The hall display's shared cache key: dropped by every write that changes what a display shows.

Kept in the competition package, apart from the display builder (``tournament.clocks.display``, above it),
so every writer (the clock, the result, closing a round) can invalidate it without importing what builds it.

    invalidate(round_id)        the round changed (its clock, a closure, a bye): rebuilt whole, and no copy
                                built before (the stale copy, a rebuild still running) is served again
    generation(round_id)        how many times the round changed: a copy carries the one it was built at
    tables_changed(round_id)    only its tables' results moved (a hand, a ruling: ``results.settle``): the
                                rebuild reads again the tables changed since the last one
"""
from django.core.cache import cache


def display_key(round_id) -> str:
    return f"clock:display:{round_id}"


def whole_key(round_id) -> str:
    """Set by :func:`invalidate`: the next rebuild reads every table, not only the changed ones."""
    return f"clock:display:{round_id}:whole"


def generation_key(round_id) -> str:
    return f"clock:display:{round_id}:generation"


def generation(round_id) -> int:
    """The round's generation: moved by every :func:`invalidate` (a change of the round itself)."""
    return cache.get(generation_key(round_id)) or 0


def invalidate(round_id) -> None:
    """Drop the cached display data of a round, to be rebuilt whole (after clock events, firings, closing).

    The round's generation moves on first: a copy built before (kept as the stale copy served during a
    rebuild, or stored by a rebuild that read the database before this change) is never served again, so the
    desk, the clock read and the hall display follow a closure, a reopening or a clock action at once."""
    key = generation_key(round_id)
    cache.add(key, 0, None)
    try:
        cache.incr(key)
    except ValueError:   # evicted between the two calls
        cache.set(key, 1, None)
    cache.set(whole_key(round_id), 1, None)
    cache.delete(display_key(round_id))


def tables_changed(round_id) -> None:
    """Drop the cached display data of a round after a write that changed its tables' Match rows only (they
    moved their ``changed_at``): the rebuild reads those tables again and keeps the others' rows."""
    cache.delete(display_key(round_id))

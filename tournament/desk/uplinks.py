"""What a table's phone still holds unsent (its offline queue), as it last told the server.

    record(match_id, pending)      the table page or console reports its queue (a heartbeat)
    of_matches(ids) -> {id: {...}} the tables whose last report held items: count and when last seen

Kept in the cache only (a heartbeat, not a record): the chief's desk shows whose results are late because
of the network. A report of an empty queue clears the table's line.
"""
from django.core.cache import cache

from infra import clock

KEPT_FOR = 12 * 3600   # seconds: a phone silent longer than a day of play is forgotten


def _key(match_id):
    return f"uplink:{match_id}"


def record(match_id, pending):
    if pending:
        cache.set(_key(match_id), {"pending": pending, "seen": clock.now()}, KEPT_FOR)
    else:
        cache.delete(_key(match_id))


def of_matches(ids):
    found = cache.get_many([_key(i) for i in ids])
    return {i: found[_key(i)] for i in ids if _key(i) in found}

"""Live public pages: which rounds and tables a page polls. The answer itself (the levels, hands and states
of those tables) is read from the hall display's shared cache by ``tournament.clocks.display.live_tables``
(the clocks sit above the competition), so a poll on a warm cache reads no table.

    live_round_ids(matches) -> list[int]        the rounds worth polling for a page's matches
    parse_round_ids(text) -> list[int]          the rounds asked for (``?rounds=``)
    parse_match_ids(text) -> list[int] | None   the tables a page shows (``?tables=``), None for all

Every write that changes a table (a hand, a ruling, a decision, the clock, closing a round) drops the
round's display data after its commit (``tournament.competition.display_cache.invalidate``); the next poll
rebuilds it once and every page and display shares it. A page polls for the tables it shows (``&tables=``, sent by
``static/js/live.js``), so its answer, and its ETag, change only when one of those does.
"""
from __future__ import annotations

from tournament.models import Match

MAX_ROUNDS = 24
MAX_TABLES = 100   # a page showing more asks for whole rounds (the address stays short)


def live_round_ids(rounds) -> list[int]:
    """Of ``rounds`` ((round, its matches) in play order): those with a table in play, and each stage's
    first round with a table still to finish (not waiting for its entrants)."""
    playing, first_open = set(), {}
    for rnd, matches in rounds:
        for m in matches:
            if m.status == Match.Status.PLAYING:
                playing.add(rnd.pk)
            if not m.is_over and m.status != Match.Status.PENDING:
                first_open.setdefault(rnd.stage_id, rnd.pk)
    return sorted(playing | set(first_open.values()))[:MAX_ROUNDS]


def parse_round_ids(text) -> list[int]:
    """"12,13" -> [12, 13] (at most MAX_ROUNDS; anything else is left out)."""
    return _ids(text)[:MAX_ROUNDS]


def parse_match_ids(text) -> list[int] | None:
    """"5,9" -> [5, 9]: the tables (matches) a page shows, so its poll carries those only and answers 304
    while they stay as they were; None (every table of the rounds) when none or more than MAX_TABLES."""
    ids = _ids(text)
    return ids if 0 < len(ids) <= MAX_TABLES else None


def _ids(text) -> list[int]:
    """The distinct whole numbers of a comma-separated list, in order (anything else left out)."""
    ids = {}
    for part in str(text or "").split(","):
        part = part.strip()
        if part.isdigit():
            ids.setdefault(int(part), None)
    return list(ids)

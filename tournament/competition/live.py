"""Live public pages: the levels, hands and states of the tables of the rounds a page shows, from the hall
display's shared cache (``tournament.clocks.display``), so a poll on a warm cache reads no table.

    live_round_ids(matches) -> list[int]        the rounds worth polling for a page's matches
    parse_match_ids(text) -> list[int] | None   the tables a page shows (``?tables=``), None for all
    live_tables(slug, round_ids, match_ids=None) -> dict   {"published": bool, "tables": {match id: {...}}}

Every write that changes a table (a hand, a ruling, a decision, the clock, closing a round) drops the
round's display data after its commit (``tournament.clocks.cache.invalidate``); the next poll rebuilds it
once and every page and display shares it. A page polls for the tables it shows (``&tables=``, sent by
``static/js/live.js``), so its answer, and its ETag, change only when one of those does.
"""
from __future__ import annotations

from tournament.clocks import display
from tournament.models import Match

MAX_ROUNDS = 24
MAX_TABLES = 100   # a page showing more asks for whole rounds (the address stays short)
FIELDS = ("ns_level", "ew_level", "status", "playing", "ended", "winner", "recorded", "hands_left")


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


def live_tables(slug, round_ids, match_ids=None) -> dict:
    """The tables of the event's rounds ``round_ids`` (other events' rounds are left out), only those of
    ``match_ids`` when given."""
    wanted = None if match_ids is None else set(match_ids)
    tables, published = {}, True
    for round_id in round_ids:
        data = display.display_data(round_id)
        if data is None or data["round"]["event_slug"] != slug:
            continue
        published = published and data["round"]["published"]
        for row in data["tables"]:
            if wanted is None or row["match_id"] in wanted:
                tables[str(row["match_id"])] = {name: row[name] for name in FIELDS}
    return {"published": published, "tables": tables}

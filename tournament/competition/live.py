"""Live public pages: the levels, hands and states of the tables of the rounds a page shows, from the hall
display's shared cache (``tournament.clocks.display``), so a poll on a warm cache reads no table.

    live_round_ids(matches) -> list[int]        the rounds worth polling for a page's matches
    live_tables(slug, round_ids) -> dict        {"published": bool, "tables": {match id: {...}}}

Every write that changes a table (a hand, a ruling, a decision, the clock, closing a round) drops the
round's display data after its commit (``tournament.clocks.cache.invalidate``); the next poll rebuilds it
once and every page and display shares it.
"""
from __future__ import annotations

from tournament.clocks import display
from tournament.models import Match

MAX_ROUNDS = 24
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
    ids = []
    for part in str(text or "").split(","):
        part = part.strip()
        if part.isdigit() and int(part) not in ids:
            ids.append(int(part))
    return ids[:MAX_ROUNDS]


def live_tables(slug, round_ids) -> dict:
    """The tables of the event's rounds ``round_ids`` (other events' rounds are left out)."""
    tables, published = {}, True
    for round_id in round_ids:
        data = display.display_data(round_id)
        if data is None or data["round"]["event_slug"] != slug:
            continue
        published = published and data["round"]["published"]
        for row in data["tables"]:
            tables[str(row["match_id"])] = {name: row[name] for name in FIELDS}
    return {"published": published, "tables": tables}

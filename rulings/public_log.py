"""The penalty log as the pages show it: pair and round names, the recorder's display name.

    log_rows(rows, user) -> rows        rows from ``rulings.presenters``, completed for a page

What ``user`` may read (the referees' notes for the event's staff only) the presenter decided already
(``rulings.presenters.sees_private``); these rows only gain names.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model

from common.names import display_name
from tournament.models import Match


def log_rows(rows, user):
    """The rows with ``round``, ``side_name`` (the offending pair) and ``recorded_by_name``. ``user`` is the
    reader the rows were presented for (``rulings.presenters``, which hid what they may not read)."""
    matches = Match.objects.select_related("round__stage", "ns", "ew").in_bulk({row["match"] for row in rows})
    users = get_user_model().objects.filter(username__in={row["recorded_by"] for row in rows})
    names = {u.get_username(): display_name(u) for u in users}
    out = []
    for row in rows:
        match = matches.get(row["match"])
        pair = (match.ns if row["side"] in ("NS", "N", "S") else match.ew) if match else None
        extra = {"round": str(match.round) if match else "", "side_name": str(pair) if pair else "",
                 "recorded_by_name": names.get(row["recorded_by"], row["recorded_by"])}
        out.append({**row, **extra})
    return out

"""The penalty log as the pages show it: pair and round names, the recorder's display name, and the
referees' notes for staff only (the public sees the rulings, not the notes).

    log_rows(rows, user) -> rows        rows from ``rulings.presenters.entry_data``, completed for a page
"""
from __future__ import annotations

from django.contrib.auth import get_user_model

from common.names import display_name
from tournament import access
from tournament.models import Match


def log_rows(rows, user):
    """The rows with ``round``, ``side_name`` (the offending pair) and ``recorded_by_name``; ``note`` and
    the void's note are emptied unless ``user`` is staff."""
    staff = access.is_staff(user)
    matches = Match.objects.select_related("round__stage", "ns", "ew").in_bulk({row["match"] for row in rows})
    users = get_user_model().objects.filter(username__in={row["recorded_by"] for row in rows})
    names = {u.get_username(): display_name(u) for u in users}
    out = []
    for row in rows:
        match = matches.get(row["match"])
        pair = (match.ns if row["side"] in ("NS", "N", "S") else match.ew) if match else None
        extra = {"round": str(match.round) if match else "", "side_name": str(pair) if pair else "",
                 "recorded_by_name": names.get(row["recorded_by"], row["recorded_by"])}
        if not staff:
            extra["note"] = ""
            if row.get("void"):
                extra["void"] = {**row["void"], "note": ""}
        out.append({**row, **extra})
    return out

"""What the pages of the tables where the players record show (reads only; the views render them).

    players_context(request, match) -> dict     the players' table page: the referee page's levels, hand
                                                form and history, the entry waiting apart, what a side may do
    decide_context(user, match) -> dict | None  the floor referee's panel on the referee's table page
    desk_rows(rnd) -> [dict]                    the desk's list: the round's waiting and disputed hands
    entry_summary(inputs) -> str                a hand as a side entered it, in words
    signature(match) -> str                     what the page's script compares to notice a change
"""
from __future__ import annotations

from django.utils.translation import get_language, gettext

from common.seats import SEAT_ZH
from scoring.models import Hand
from scoring.table_page import table_context
from tournament.selfscore import modes, presenters, services, waiting

SIDE_WORDS = {"NS": "North–South", "EW": "East–West"}


def _seat(seat) -> str:
    chinese = (get_language() or "").startswith("zh")
    return SEAT_ZH.get(seat or "", seat or "") if chinese else (seat or "")


def side_name(side) -> str:
    """南北 / 东西 (North–South / East–West)."""
    return gettext(SIDE_WORDS[side]) if side in SIDE_WORDS else ""


def entry_summary(inputs) -> str:
    """A hand as entered: its trump, points and declarer; a redeal or a rebellion in words."""
    inputs = inputs or {}
    outcome = inputs.get("outcome", Hand.Outcome.PLAYED)
    if outcome == Hand.Outcome.REDEAL:
        return gettext("No trump declared: redealt")
    if outcome == Hand.Outcome.REBEL:
        return gettext("Rebellion: called by %(caller)s, the new bidding won by %(declarer)s") % {
            "caller": _seat(inputs.get("called_by")), "declarer": _seat(inputs.get("declarer"))}
    trumps = dict(Hand.Trump.choices)
    parts = [f"{gettext('Trump')} {trumps.get(inputs.get('trump'), inputs.get('trump') or '–')}",
             f"{gettext('Defender points')} {inputs.get('defender_points', '–')}",
             f"{gettext('Bottom points')} {inputs.get('bottom_points', 0)}"]
    if inputs.get("declarer"):
        parts.insert(0, f"{gettext('Declarer')} {_seat(inputs['declarer'])}")
    return " · ".join(parts)


def _entry_view(entry) -> dict | None:
    """An open entry as the pages show it."""
    if entry is None:
        return None
    disputed = next((step for step in entry.steps.all() if step.state == "disputed"), None)
    return {"id": entry.pk, "number": entry.number, "kind": entry.kind, "side": entry.side,
            "side_name": side_name(entry.side), "state": entry.state, "summary": entry_summary(entry.inputs),
            "entered_at": entry.entered_at, "correction": entry.kind == "correction",
            "disputed": disputed is not None, "disputed_by": side_name(disputed.side) if disputed else "",
            "note": disputed.note if disputed else "", "disputed_at": disputed.at if disputed else None}


def signature(data) -> str:
    """The string static/js/scoring.js builds from the table's JSON (``presenters.table_data``)."""
    levels = data["levels"]
    hands = "".join(f"{h['number']}.{'' if h['version'] is None else h['version']}," for h in data["hands"])
    own = data["waiting"]
    tail = f"|{own['id']}{own['state']}" if own else ""
    return f"{levels['NS'] or ''}|{levels['EW'] or ''}|{data['status']}|{hands}{tail}"


def players_context(request, match) -> dict:
    """The players' table page of ``match`` (read by ``scoring.table_page.table_match``)."""
    context = table_context(request, match)
    data = presenters.table_data(match)
    open_entry = next((e for e in waiting.entries_of(match, limit=5) if e.state in waiting.OPEN), None)
    recording = modes.players_record(match)
    closed = match.is_over or match.round.results_published_at is not None
    free = recording and not closed and open_entry is None
    state = context["state"]
    state["actions"] = {"record": free and state["winner"] is None,
                        "correct": free and context["last_hand"] is not None}
    context.update({
        "recording": recording, "closed": closed, "open_entry": _entry_view(open_entry),
        "signature": signature(data), "offline_owner": f"players:{match.pk}",
        "side_names": {side: side_name(side) for side in SIDE_WORDS},
    })
    return context


def decide_context(user, match) -> dict | None:
    """The floor referee's panel: the entry open at ``match`` (waiting, or disputed) when ``user`` may decide
    it; None otherwise."""
    if not modes.players_record(match) or not services.may_decide(user, match):
        return None
    open_entry = waiting.open_entry(match)
    return {"entry": _entry_view(open_entry)} if open_entry is not None else None


def desk_rows(rnd) -> list:
    """The round's hands waiting for confirmation and its disputes, newest first, for the desk."""
    rows = []
    for entry in waiting.open_entries(rnd=rnd):
        row = _entry_view(entry)
        row.update({"table": entry.match.table, "match": entry.match_id,
                    "since": row["disputed_at"] or entry.entered_at})
        rows.append(row)
    return sorted(rows, key=lambda row: row["since"], reverse=True)

"""One entry's page (我在哪桌): its matches with round, table, seats, time, opponents, levels and result; its
group standing; its knock-out path; the rulings at its tables. Read only, a fixed number of queries.

    entry_summary(event, pair_id) -> dict | None
"""
from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from rulings.models import Ruling
from rulings.presenters import entry_data
from tournament.competition import group_standings
from tournament.competition.stages import describe_source
from tournament.models import Group, GroupEntry, Match, Pair, Stage
from tournament.records.ledger import match_entries
from tournament.records.notes import note_words


def _seats(pair, side) -> list[tuple[str, str]]:
    """[("北", player 1), ("南", player 2)] for North–South; East and West for East–West."""
    first, second = {"NS": (_("North"), _("South")), "EW": (_("East"), _("West"))}[side]
    return [(first, pair.player1.name), (second, pair.player2.name)]


def _opponent_name(match, side) -> str:
    other = _opponent(match, side)
    if other is not None:
        return str(other)
    if match.status == Match.Status.BYE:
        return str(_("Bye"))
    return describe_source(match.ew_source if side == "NS" else match.ns_source) or "—"


def _opponent(match, side):
    return match.ew if side == "NS" else match.ns


def _match_row(match, pair) -> dict:
    side = "NS" if match.ns_id == pair.pk else "EW"
    other = "EW" if side == "NS" else "NS"
    levels = {"NS": match.ns_level, "EW": match.ew_level}
    return {
        "match": match, "round": match.round, "stage": match.round.stage, "table": match.table,
        "group": Group.heading(match.group.name, match.round.stage.label,
                               (match.round.stage.settings or {}).get("n_groups") == 1) if match.group_id else "", "bracket_key": match.bracket_key,
        "side": side, "side_label": _("North–South") if side == "NS" else _("East–West"),
        "seats": _seats(pair, side), "opponent": _opponent_name(match, side),
        "opponent_unit": _opponent(match, side).unit.name if _opponent(match, side) is not None else "",
        "my_level": levels[side], "their_level": levels[other],
        "won": match.winner_id == pair.pk, "lost": match.winner_id is not None and match.winner_id != pair.pk,
        "over": match.is_over, "playing": match.status == Match.Status.PLAYING, "bye": match.status == Match.Status.BYE,
        "note": note_words(match.result_note),   # a row stored before the note was written as decided
    }


def _group_rows(event, pair_id) -> list[dict]:
    """The entry's line in each group table it plays in, with the group's name and size."""
    found = []
    for stage in group_standings.event_standings(event, GroupEntry.objects.filter(pair_id=pair_id).values("group_id")):
        for table in stage.groups:
            for row in table.rows:
                if row.entry.pair_id == pair_id:
                    found.append({"stage": stage.name, "group": table, "row": row})
    return found


def _next_knockout(matches, pair) -> dict | None:
    """Where the entry goes if it wins its knock-out match still to be decided (None: no such match)."""
    open_ko = [m for m in matches if m.bracket_key and not m.is_over]
    if not open_ko:
        return None
    current = open_ko[0]
    code = f"W:{current.bracket_key}"
    following = (Match.objects.filter(round__stage_id=current.round.stage_id)
                 .filter(Q(ns_source=code) | Q(ew_source=code)).select_related("round").first())
    if following is None:
        return None
    return {"from": current, "to": following}


def _rulings(matches) -> list[dict]:
    """Every ruling at the entry's tables, with the sanction now in force (one replay per match)."""
    by_match: dict = {}
    query = (Ruling.objects.filter(match__in=[m.pk for m in matches])
             .select_related("void", "approval", "choice_made", "recorded_by", "profile", "match__profile",
                             "match__round")
             .prefetch_related("appeals__decisions", "appeals__filed_by").order_by("match_id", "sequence"))
    for ruling in query:
        by_match.setdefault(ruling.match_id, []).append(ruling)
    rows = []
    for group in by_match.values():
        rows.extend(entry_data(e) for e in match_entries(group[0].match, group))
    return rows


def entry_summary(event, pair_id) -> dict | None:
    """Everything the entry's page shows (None: no such entry in the event)."""
    pair = (Pair.objects.select_related("unit", "team", "player1", "player2")
            .filter(event=event, pk=pair_id).first())
    if pair is None:
        return None
    matches = list(Match.objects.filter(Q(ns=pair) | Q(ew=pair))
                   .select_related("round__stage", "group", "ns__unit", "ew__unit", "winner")
                   .order_by("round__stage__order", "round__number", "table", "pk"))
    rows = [_match_row(m, pair) for m in matches]
    knockouts = [r for r in rows if r["stage"].kind == Stage.Kind.ELIMINATION]
    return {
        "pair": pair,
        "matches": rows,
        "next_match": next((r for r in rows if not r["over"]), None),
        "groups": _group_rows(event, pair.pk) if any(r["group"] for r in rows) else [],
        "knockouts": knockouts,
        "next_knockout": _next_knockout(matches, pair) if knockouts else None,
        "rulings": _rulings(matches) if matches else [],
        "live_rounds": sorted({m.round_id for m in matches if not m.is_over}),
    }

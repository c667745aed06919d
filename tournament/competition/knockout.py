"""Where a knock-out stands: the bracket resolved against the recorded results (read only).

The bracket is never stored as state: :func:`bracket_state` rebuilds the pure bracket from the
recorded bracket draw and resolves it against the winners of the decided matches, the withdrawn
entries and (for a knock-out fed by groups) the group qualifiers known so far; a reserve pair brought in
for a pair after the draw (:class:`~tournament.models.PairSubstitution`) holds that pair's place in the
matches not yet begun (``BracketView.pair_of`` names the holder). Writing the resulting
entrants, byes and walkovers into the Match rows is the result service's
(:func:`tournament.competition.results.advance_bracket`).
"""
from __future__ import annotations

from dataclasses import dataclass

from tournament.competition import group_standings
from tournament.competition.slot_holders import holders
from tournament.competition.stages import bracket_from_draw, source_code
from tournament.engines import brackets
from tournament.models import Draw, Match, Pair, Stage
from tournament.records.notes import BYE_NOTE, VOID_NOTE, WALKOVER_NOTE


@dataclass
class BracketView:
    """A knock-out stage resolved against its results: the pure bracket and state, and the DB rows."""

    stage: Stage
    draw: Draw
    bracket: brackets.Bracket
    state: brackets.BracketState
    labels: dict  # bracket entry (pair id, or a qualifier label such as "A1") -> pair id or None
    rows: dict  # bracket key -> Match
    holders: dict = None  # drawn pair id -> the reserve pair now holding its place (substitutions)
    origins: dict = None  # any pair that held a place -> the drawn pair id of that place

    def pair_of(self, entry):
        """The pair now holding a bracket entry's place (None while a qualifier is not known yet)."""
        pid = None if entry is None else self.labels.get(entry)
        return (self.holders or {}).get(pid, pid)

    def same_place(self, pid) -> object:
        """The drawn pair whose place ``pid`` holds (itself when it was drawn): compares a match played
        before a substitution with the place's pair now."""
        return (self.origins or {}).get(pid, pid)



def latest_draw(stage: Stage, kind: str) -> Draw | None:
    """The newest draw of this kind not superseded, a void included (what a new draw of the kind supersedes).

    Seats and table numbers belong to the matches of the stage's groups or bracket draw: a redraw (or a
    void) of those rebuilds (or removes) the matches, so a seats or tables draw made before it is no longer
    in force.
    """
    draws = Draw.objects.filter(stage=stage, kind=kind, superseded_by__isnull=True)
    if kind in (Draw.Kind.SEATS, Draw.Kind.TABLES):
        base = (Draw.objects.filter(stage=stage, kind__in=(Draw.Kind.GROUPS, Draw.Kind.BRACKET),
                                    superseded_by__isnull=True).order_by("-pk").first())
        if base is not None:
            draws = draws.filter(pk__gt=base.pk)
    return draws.order_by("-created_at", "-pk").first()


def active_draw(stage: Stage, kind: str) -> Draw | None:
    """The draw of this kind now in force for the stage: the newest not superseded, unless that is a void
    (the organiser voided the draw: none is in force until the next one)."""
    draw = latest_draw(stage, kind)
    return None if draw is None or draw.is_void else draw


def active_bracket_draw(stage: Stage) -> Draw | None:
    """The stage's bracket draw now in force (the newest not superseded)."""
    return active_draw(stage, Draw.Kind.BRACKET)


def entry_labels(stage: Stage, draw: Draw, source_standings=None) -> dict:
    """Bracket entry -> pair id: pair ids stand for themselves, "A1" is group A's winner once known
    (``source_standings``: the source stage's standings when the caller has them)."""
    entries = [e for pair in draw.result["first_round"] for e in pair if e is not None]
    labels = {e: e for e in entries if isinstance(e, int)}
    names = [e for e in entries if isinstance(e, str)]
    if names and stage.source_id:
        per_group = (stage.settings or {}).get("qualifiers_per_group", 2)
        known = group_standings.qualifiers(stage.source, per_group, source_standings)
        labels.update({name: known.get(name) for name in names})
    return labels


def bracket_state(stage: Stage, source_standings=None) -> BracketView | None:
    """Resolve the stage's bracket from the recorded results (None before the bracket draw);
    ``source_standings``: the standings of the stage feeding it, when the caller has them."""
    draw = active_bracket_draw(stage)
    if draw is None:
        return None
    bracket = bracket_from_draw(draw)
    labels = entry_labels(stage, draw, source_standings)
    rows = {m.bracket_key: m for m in Match.objects.filter(round__stage=stage).exclude(bracket_key="")}
    label_of = {pid: label for label, pid in labels.items() if pid is not None}
    holder, origin = holders(stage.event_id)
    label_of.update({pid: label_of[place] for pid, place in origin.items() if place in label_of})
    results = {key: label_of[m.winner_id] for key, m in rows.items()
               if m.status in Match.DECIDED and m.winner_id in label_of}
    now_holding = {holder.get(pid, pid): label for label, pid in labels.items() if pid is not None}
    gone = set(Pair.objects.filter(pk__in=list(now_holding), status__in=Pair.GONE).values_list("pk", flat=True))
    withdrawn = [now_holding[pid] for pid in gone]
    state = bracket.resolve(results, withdrawn=withdrawn, strict=False)
    return BracketView(stage, draw, bracket, state, labels, rows, holder, origin)


def derive(view: BracketView, ms: brackets.MatchState, row: Match) -> tuple[str, int | None, str]:
    """(status, winner pair id, note) that the row should show for a resolved match."""
    a, b = view.pair_of(ms.a), view.pair_of(ms.b)
    if ms.status == brackets.WAITING or (ms.status == brackets.READY and (a is None or b is None)):
        return Match.Status.PENDING, None, ""
    if ms.status == brackets.READY:
        return Match.Status.SCHEDULED, None, ""
    if ms.status == brackets.BYE:
        winner = view.pair_of(ms.winner)
        return (Match.Status.BYE, winner, BYE_NOTE) if winner else (Match.Status.PENDING, None, "")
    if ms.status == brackets.VOID:
        return Match.Status.BYE, None, VOID_NOTE
    if ms.status == brackets.WALKOVER:
        return Match.Status.WALKOVER, view.pair_of(ms.winner), WALKOVER_NOTE
    return row.status, view.pair_of(ms.winner), row.result_note  # played: as recorded


def sides(slot: brackets.MatchSlot, row: Match, a, b, same_place=None) -> tuple:
    """(ns, ew) keeping the row's seating: a seats draw may have put side b at North–South.
    ``same_place`` (``BracketView.same_place``): a reserve pair seated where the pair it replaced sat."""
    place = same_place or (lambda pid: pid)
    code_b = source_code(slot.b)
    swapped = (bool(code_b) and row.ns_source == code_b and row.ew_source != code_b) or \
        (row.ns_id is not None and b is not None and place(row.ns_id) == place(b))
    return (b, a) if swapped else (a, b)

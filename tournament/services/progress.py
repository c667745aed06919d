"""Results move the competition on by themselves.

How it is called: ``tournament/models_competition.py`` connects a ``post_save`` signal on Match that
calls :func:`on_match_finished` whenever a match is saved as over (finished, walkover, forfeit), and
one on Pair that calls :func:`on_entry_withdrawn` when a pair is saved as withdrawn. The scoring
layer therefore needs to do nothing; calling either function again (directly or through the signal)
is harmless: both recompute from the recorded results and change only what differs (idempotent).

The bracket is never stored as state: :func:`bracket_state` rebuilds the pure bracket from the
recorded bracket draw and resolves it against the winners of the finished matches, the withdrawn
entries and (for a knock-out fed by groups) the group qualifiers known so far; :func:`advance_bracket`
writes the resulting sides, byes and walkovers into the Match rows.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Q

from tournament import brackets
from tournament.models import Draw, Match, Pair, Stage

from . import ranking
from .stages import bracket_from_draw, drop_conflicting_referees, source_code

PLAYED = (Match.Status.PLAYING, Match.Status.FINISHED, Match.Status.FORFEIT)
DECIDED = (Match.Status.FINISHED, Match.Status.WALKOVER, Match.Status.FORFEIT)
BYE_NOTE = "轮空，直接晋级"
VOID_NOTE = "双方均缺席"
WALKOVER_NOTE = "对手退赛，不战而胜"


@dataclass
class BracketView:
    """A knock-out stage resolved against its results: the pure bracket and state, and the DB rows."""

    stage: Stage
    draw: Draw
    bracket: brackets.Bracket
    state: brackets.BracketState
    labels: dict  # bracket entry (pair id, or a qualifier label such as "A1") -> pair id or None
    rows: dict  # bracket key -> Match

    def pair_of(self, entry):
        """The pair id behind a bracket entry (None while a qualifier is not known yet)."""
        return None if entry is None else self.labels.get(entry)


def active_bracket_draw(stage: Stage) -> Draw | None:
    """The stage's bracket draw now in force (the newest not superseded)."""
    from .draws import active_draw

    return active_draw(stage, Draw.Kind.BRACKET)


def entry_labels(stage: Stage, draw: Draw) -> dict:
    """Bracket entry -> pair id: pair ids stand for themselves, "A1" is group A's winner once known."""
    entries = [e for pair in draw.result["first_round"] for e in pair if e is not None]
    labels = {e: e for e in entries if isinstance(e, int)}
    names = [e for e in entries if isinstance(e, str)]
    if names and stage.source_id:
        per_group = (stage.settings or {}).get("qualifiers_per_group", 2)
        known = ranking.qualifiers(stage.source, per_group)
        labels.update({name: known.get(name) for name in names})
    return labels


def bracket_state(stage: Stage) -> BracketView | None:
    """Resolve the stage's bracket from the recorded results (None before the bracket draw)."""
    draw = active_bracket_draw(stage)
    if draw is None:
        return None
    bracket = bracket_from_draw(draw)
    labels = entry_labels(stage, draw)
    rows = {m.bracket_key: m for m in Match.objects.filter(round__stage=stage).exclude(bracket_key="")}
    label_of = {pid: label for label, pid in labels.items() if pid is not None}
    results = {key: label_of[m.winner_id] for key, m in rows.items()
               if m.status in DECIDED and m.winner_id in label_of}
    gone = set(Pair.objects.filter(pk__in=list(label_of), status=Pair.Status.WITHDRAWN).values_list("pk", flat=True))
    withdrawn = [label_of[pid] for pid in gone]
    state = bracket.resolve(results, withdrawn=withdrawn, strict=False)
    return BracketView(stage, draw, bracket, state, labels, rows)


def _derive(view: BracketView, ms: brackets.MatchState, row: Match) -> tuple[str, int | None, str]:
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


def _sides(slot: brackets.MatchSlot, row: Match, a, b) -> tuple:
    """(ns, ew) keeping the row's seating: a seats draw may have put side b at North–South."""
    code_b = source_code(slot.b)
    swapped = (bool(code_b) and row.ns_source == code_b and row.ew_source != code_b) or \
        (row.ns_id is not None and row.ns_id == b and b is not None)
    return (b, a) if swapped else (a, b)


def advance_bracket(stage: Stage) -> list[str]:
    """Write the resolved bracket into the stage's Match rows; returns the keys of stale results.

    Matches being played or decided by play are never changed; byes resolve at once, a withdrawn
    entry's match becomes a walkover for the other side, and referees whose unit now plays at a
    table are taken off it. A stale result is one recorded for a match whose entries changed after
    an earlier result was corrected (the organiser must look at it).
    """
    with transaction.atomic():
        stage = Stage.objects.select_for_update().get(pk=stage.pk)
        view = bracket_state(stage)
        if view is None:
            return []
        changed = []
        for slot in view.bracket.matches:
            row = view.rows.get(slot.key)
            if row is None or row.status in PLAYED or row.started_at is not None:
                continue
            ms = view.state.matches[slot.key]
            ns, ew = _sides(slot, row, view.pair_of(ms.a), view.pair_of(ms.b))
            status, winner, note = _derive(view, ms, row)
            new = (ns, ew, status, winner, note)
            if (row.ns_id, row.ew_id, row.status, row.winner_id, row.result_note) != new:
                row.ns_id, row.ew_id, row.status, row.winner_id, row.result_note = new
                changed.append(row)
        if changed:
            Match.objects.bulk_update(changed, ["ns", "ew", "status", "winner", "result_note"])
            drop_conflicting_referees([r.pk for r in changed])
        return list(view.state.stale)


def on_match_finished(match: Match) -> None:
    """A match is over: move its bracket on, or fill the next knock-out once its group is complete."""
    stage = Stage.objects.filter(rounds=match.round_id).first()
    if stage is None:
        return
    if stage.kind == Stage.Kind.ELIMINATION:
        advance_bracket(stage)
        return
    if match.group_id and Match.objects.filter(group_id=match.group_id).exclude(
            status__in=(*DECIDED, Match.Status.BYE)).exists():
        return
    for following in stage.next_stages.filter(kind=Stage.Kind.ELIMINATION):
        advance_bracket(following)


@transaction.atomic
def on_entry_withdrawn(pair: Pair) -> int:
    """A pair withdrew: each of its group matches not yet begun becomes a walkover for the opponent,
    and every knock-out of the event is moved on. Returns the number of group walkovers given."""
    waiting = (Match.Status.PENDING, Match.Status.SCHEDULED)
    given = 0
    for match in (Match.objects.select_for_update()
                  .filter(Q(ns=pair) | Q(ew=pair), group__isnull=False, status__in=waiting,
                          started_at__isnull=True, ew__isnull=False)):
        other = match.ew_id if match.ns_id == pair.pk else match.ns_id
        Match.objects.filter(pk=match.pk).update(status=Match.Status.WALKOVER, winner_id=other,
                                                 result_note=WALKOVER_NOTE)
        given += 1
    for stage in Stage.objects.filter(event_id=pair.event_id, kind=Stage.Kind.ELIMINATION):
        advance_bracket(stage)
    return given

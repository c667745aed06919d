"""Standings of a Swiss stage after each round, read from the recorded results (read only).

A Swiss stage is one field: its entries are the ones drawn into its first round (``Draw.params["entries"]``
of the round-1 pairing). The standings after round k count the results of rounds 1..k with the pure
:func:`tournament.engines.standings.compute_standings`: points from the profile (3/0 by default), then the
profile's tie-breaks, with Buchholz (the sum of the opponents' points, ``buchholz``) added before the
lot when the profile's order does not name it; the lot is drawn with the seed "<round-1 seed>:名次".

A bye (a Match with no opponent, status bye, the entry as winner) counts as a forfeit win against a
phantom opponent (:data:`tournament.engines.standings.BYE`): the points of a win and the walkover levels of the
stage's forfeit rule (``Stage.settings["forfeit_rule"]``, else the profile's, else the largest margin of
the stage); the phantom counts in no one's Buchholz.

Query budget: stage rounds, entries, matches and the round-1 draw: four queries, whatever the size.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext as _

from common.errors import ConflictError, UserError, gettext_noop
from tournament.competition.standings_rows import EntryInfo, metric_label, shown_tie_note, standings_config
from tournament.engines import standings as pure
from tournament.models import Draw, Match, Pair, Round, Stage

DEFAULT_QUALIFIERS = 8  # a knock-out fed by a Swiss stage takes its top eight unless told otherwise


@dataclass(frozen=True)
class SwissRow:
    rank: int
    entry: EntryInfo
    played: int
    wins: int
    losses: int
    byes: int
    points: float
    buchholz: float
    net_levels: int
    tie_note: str
    shared: bool


@dataclass(frozen=True)
class SwissStandings:
    stage_id: int
    name: str
    after_round: int        # the standings count rounds 1..after_round
    rounds_paired: int
    rounds_planned: int
    rows: tuple[SwissRow, ...]
    order_labels: tuple[str, ...]
    notes: tuple[str, ...]
    lot_seed: str | None
    round_decided: bool     # every table of rounds 1..after_round is decided

    @property
    def complete(self) -> bool:
        """Every planned round paired and decided: the final Swiss ranking."""
        return (self.rounds_planned > 0 and self.rounds_paired >= self.rounds_planned
                and self.after_round >= self.rounds_planned and self.round_decided)


def suggested_rounds(n_entries: int) -> int:
    """ceil(log2(n)) + 1 rounds: enough for one entry to stand alone on top, plus one (0 for under 2)."""
    return math.ceil(math.log2(n_entries)) + 1 if n_entries >= 2 else 0


def swiss_order(order: tuple[str, ...]) -> tuple[str, ...]:
    """The profile's tie-break order with ``buchholz`` before the lot (or at the end) when not named."""
    if "buchholz" in order:
        return order
    if order and order[-1] in ("lot", "shared"):
        return (*order[:-1], "buchholz", order[-1])
    return (*order, "buchholz")


def first_draw(stage: Stage) -> Draw | None:
    """The pairing of round 1 now in force (it holds the stage's entries and the standings' lot seed)."""
    return (Draw.objects.filter(stage=stage, kind=Draw.Kind.SWISS, superseded_by__isnull=True,
                                params__round=1).order_by("-pk").first())


def planned_rounds(stage: Stage, n_entries: int | None = None) -> int:
    """The organiser's number of rounds, else the suggestion from the field size."""
    rounds = (stage.settings or {}).get("rounds")
    if rounds:
        return int(rounds)
    if n_entries is None:
        n_entries = Pair.objects.filter(event_id=stage.event_id, status=Pair.Status.ACTIVE, reserve=False).count()
    return suggested_rounds(n_entries)


def _result(row, ladder) -> pure.MatchResult | None:
    _number, ns, ew, winner, ns_level, ew_level, status = row
    if ew is None:
        if status == Match.Status.BYE and winner is not None:
            return pure.MatchResult(ns, pure.BYE, ns, ladder[-1], ladder[0], forfeit=True)
        return None
    if status not in Match.DECIDED or (status == Match.Status.FINISHED and winner is None):
        return None
    start = ladder[0]
    return pure.MatchResult(ns, ew, winner, ns_level or start, ew_level or start,
                            forfeit=status != Match.Status.FINISHED)


def stage_standings(stage: Stage, after_round: int | None = None) -> SwissStandings:
    """The Swiss stage's standings after ``after_round`` (default: the last round paired)."""
    if stage.kind != Stage.Kind.SWISS:
        raise UserError(gettext_noop("%(stage)s is not a Swiss stage."), field="stage", stage=stage.label)
    draw = first_draw(stage)
    numbers = list(Round.objects.filter(stage=stage).order_by("number").values_list("number", flat=True))
    paired = numbers[-1] if numbers else 0
    after = paired if after_round is None else max(0, min(int(after_round), paired))
    ids = [int(i) for i in draw.params["entries"]] if draw else []
    infos = {pid: EntryInfo(pid, name, unit or "", status == Pair.Status.WITHDRAWN, status) for pid, name, unit, status in
             Pair.objects.filter(pk__in=ids).values_list("pk", "name", "unit__name", "status")}
    rows = list(Match.objects.filter(round__stage=stage, round__number__lte=after)
                .values_list("round__number", "ns_id", "ew_id", "winner_id", "ns_level", "ew_level", "status"))
    profile_data = stage.event.profile.data
    config = standings_config(profile_data, stage.settings)
    config["order"] = swiss_order(config["order"])
    ladder = config["ladder"] or ["2", "A"]
    results = [r for r in (_result(row, ladder) for row in rows) if r is not None]
    decided = len(results) == len(rows)
    lot_seed = f"{draw.seed}:名次" if draw else None
    has_bye = any(r.b == pure.BYE for r in results)
    table = pure.compute_standings([*ids, pure.BYE] if has_bye else ids, results, lot_seed=lot_seed, **config)
    byes = {r.a for r in results if r.b == pure.BYE}
    out = []
    position = 0
    for r in table.rows:
        if r.entry == pure.BYE:
            continue
        position += 1
        out.append(SwissRow(
            rank=r.rank if not has_bye else _rank_without_bye(table, r), entry=infos[r.entry], played=r.played,
            wins=r.wins, losses=r.losses, byes=1 if r.entry in byes else 0,
            points=_plain(r.values.get("points", 0)), buchholz=_plain(r.values.get("buchholz", 0)),
            net_levels=int(r.values.get("net_levels", 0)),
            tie_note=shown_tie_note(r, table.order, lot_seed=lot_seed, complete=decided and bool(results)),
            shared=r.shared))
    return SwissStandings(stage.pk, stage.label, after, paired, planned_rounds(stage, len(ids) or None),
                          tuple(out), tuple(metric_label(n) for n in table.order), _notes(out, lot_seed), lot_seed,
                          decided)


def _notes(rows: list[SwissRow], lot_seed) -> tuple[str, ...]:
    """The notes under the table in the active language (the pure notes mix both languages)."""
    notes = []
    if any(r.tie_note and lot_seed and lot_seed in r.tie_note for r in rows):
        notes.append(_("Some places were drawn by lot (seed %(seed)s).") % {"seed": lot_seed})
    return tuple(notes)


def _rank_without_bye(table: pure.Standings, row: pure.StandingRow) -> int:
    """The row's rank once the phantom bye opponent is left out (it may rank anywhere on its Buchholz)."""
    bye = next(r for r in table.rows if r.entry == pure.BYE)
    return row.rank - 1 if bye.rank < row.rank else row.rank


def _plain(value):
    return int(value) if float(value).is_integer() else round(float(value), 2)


def ranking_order(result: SwissStandings) -> list[int]:
    """Pair ids best first (ties already broken by the order and the lot)."""
    return [row.entry.pair_id for row in result.rows]


def qualifier_order(stage: Stage, count: int) -> list[int]:
    """The top ``count`` of a finished Swiss stage, best first (ConflictError while it is not finished)."""
    result = stage_standings(stage)
    if not result.complete:
        raise ConflictError(gettext_noop("%(stage)s is not finished: its qualifiers are not known yet."),
                            field="source", stage=stage.label)
    active = [row.entry.pair_id for row in result.rows if not row.entry.withdrawn]
    return active[:count]


def knockout_entries(stage: Stage) -> list[int] | None:
    """For a knock-out fed by a Swiss stage: its qualifiers best first (the bracket's seeds); else None."""
    if stage.source_id is None or stage.source.kind != Stage.Kind.SWISS:
        return None
    count = (stage.settings or {}).get("qualifiers_per_group") or DEFAULT_QUALIFIERS
    return qualifier_order(stage.source, count)


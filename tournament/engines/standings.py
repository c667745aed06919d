"""Pure group standings and crosstables (no Django imports).

Standings rank entries by a configurable order of named metrics (the idea is
borrowed from Tabbycat): each name in ``order`` is looked up in ``METRICS``
and entries still level are separated by the next name. Two names end an
order: ``"lot"`` draws the remaining ties with ``random.Random(lot_seed)``
(without a seed the tie stays shared and is marked ``lot_pending``), and
``"shared"`` leaves them sharing the place. Examples from the rules:

- company-league: ``["points", "net_levels", "total_levels", "lot"]``
- company-league-2008: ``["points", "net_levels", "shared"]``

Every row says which metric finally set it apart (``decided_by``).

Levels are numbers: a level's value is its ladder index + 2, so with the
ladder "2".."10","J","Q","K","A"("JOKER") the values are 2..10, J=11, Q=12,
K=13, A=14, JOKER=15. Net levels = own final level minus the opponent's,
summed; total levels = own final levels, summed.

Forfeits and walkovers (``forfeit=True``) count by ``forfeit_rule``:

- ``"largest_margin"`` (default): a win for the other side with the largest
  margin seen in the group: the forfeit takes the final levels of the
  group's played (not forfeited) match with the largest winner-minus-loser
  margin (of those, the one with the highest winner's level). With no played
  match yet it takes the top and bottom of the ladder.
- ``"recorded"``: the levels recorded with the result are used as given.
- a mapping ``{"winner_level": "A", "loser_level": "2"}``: fixed levels.

A double forfeit (``forfeit=True``, ``winner=None``) is a forfeit loss for
both, with no levels (0 net, 0 total). ``winner=None`` without forfeit is a
draw and needs ``points["draw"]``.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from common.errors import UserError, gettext_noop
from tournament.engines.crosstable import CrossResult, Crosstable, crosstable  # noqa: F401  (re-exported)
from tournament.engines.standings_input import (
    DRAW,
    LOSS,
    WIN,
    MatchResult,
    check_entries,
    check_order,
    check_results,
    points_table,
)

__all__ = [
    "MatchResult",
    "StandingRow",
    "Standings",
    "CrossResult",
    "Crosstable",
    "METRICS",
    "register_metric",
    "compute_standings",
    "crosstable",
    "level_value",
    "BYE",
]

#: The opponent of a Swiss bye (a result against it is a forfeit win): counted in no one's Buchholz.
BYE = "(bye)"



class _Side(NamedTuple):
    """One match seen from one entry: normalised for the metrics."""

    opponent: Any
    outcome: str
    own: int
    opp: int
    points: float
    forfeit: bool


@dataclass
class _Table:
    """What metrics read: each entry's sides, plus the entries' given order."""

    entries: list
    sides: dict  # entry -> list[_Side]


MetricFn = Callable[[_Table, Sequence[Any]], Mapping[Any, float]]


@dataclass(frozen=True)
class Metric:
    """A named ranking metric; higher values rank higher.

    ``contextual`` metrics (like head-to-head) depend on which entries are
    tied and are computed per tied block; the others once for everyone.
    """

    name: str
    label: str
    fn: MetricFn
    contextual: bool = False


METRICS: dict[str, Metric] = {}


def register_metric(name: str, label: str, *, contextual: bool = False) -> Callable[[MetricFn], MetricFn]:
    """Decorator adding a metric function to ``METRICS`` under ``name``."""

    def add(fn: MetricFn) -> MetricFn:
        METRICS[name] = Metric(name, label, fn, contextual)
        return fn

    return add


@register_metric("points", "积分")
def _points(table: _Table, block: Sequence[Any]) -> dict:
    return {e: sum(s.points for s in table.sides[e]) for e in block}


@register_metric("net_levels", "净胜级数")
def _net_levels(table: _Table, block: Sequence[Any]) -> dict:
    return {e: sum(s.own - s.opp for s in table.sides[e]) for e in block}


@register_metric("total_levels", "总级数")
def _total_levels(table: _Table, block: Sequence[Any]) -> dict:
    return {e: sum(s.own for s in table.sides[e]) for e in block}


@register_metric("wins", "胜场")
def _wins(table: _Table, block: Sequence[Any]) -> dict:
    return {e: sum(1 for s in table.sides[e] if s.outcome == WIN) for e in block}


@register_metric("head_to_head", "相互间积分", contextual=True)
def _head_to_head(table: _Table, block: Sequence[Any]) -> dict:
    inside = {e: True for e in block}
    return {e: sum(s.points for s in table.sides[e] if s.opponent in inside) for e in block}


@register_metric("buchholz", "对手分")
def _buchholz(table: _Table, block: Sequence[Any]) -> dict:
    """Buchholz: the sum of the points of every opponent met (a bye's phantom opponent counts nothing)."""
    points = {e: sum(s.points for s in sides) for e, sides in table.sides.items()}
    return {e: sum(points.get(s.opponent, 0) for s in table.sides[e] if s.opponent != BYE) for e in block}


@dataclass(frozen=True)
class StandingRow:
    """One ranked entry.

    ``values``: metric name -> value (a contextual metric only where it was
    used). ``decided_by``: the metric that set this entry apart from those
    level with it ("lot" or "shared" likewise; None while a tie stays open).
    ``shared``: the rank is shared; ``lot_pending``: shared only until the lot
    is drawn.
    """

    rank: int
    entry: Any
    values: Mapping[str, float]
    decided_by: str | None
    shared: bool
    lot_pending: bool
    played: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class Standings:
    """Ranked rows plus how they were ranked (for display beside the table)."""

    rows: tuple[StandingRow, ...]
    order: tuple[str, ...]
    lot_seed: int | str | None
    notes: tuple[str, ...] = ()


def level_value(level: str, ladder_index: Mapping[str, int], field_name: str) -> int:
    """A ladder string's number: ladder index + 2 (UserError naming the field)."""
    try:
        return ladder_index[level] + 2
    except (KeyError, TypeError):
        raise UserError(gettext_noop("The level %(level)r is not in the ladder."), field=field_name, level=level) from None


# --------------------------------------------------------------------------- forfeits
def _forfeit_levels(results: list[MatchResult], rule: Any, ladder_index: Mapping[str, int],
                    ladder: Sequence[str]) -> tuple[int, int] | None:
    """(winner value, loser value) that a forfeit counts as; None for "recorded"."""
    if rule == "recorded":
        return None
    if isinstance(rule, Mapping):
        return (level_value(rule.get("winner_level"), ladder_index, "forfeit_rule.winner_level"),
                level_value(rule.get("loser_level"), ladder_index, "forfeit_rule.loser_level"))
    if rule != "largest_margin":
        raise UserError(gettext_noop("Unknown forfeit rule %(rule)r."), field="forfeit_rule", rule=rule)
    if not any(r.forfeit and r.winner is not None for r in results):
        return None  # not needed
    best = None
    for i, r in enumerate(results):
        if r.forfeit or r.winner is None:
            continue
        va, vb = _levels(r, i, ladder_index)
        won, lost = (va, vb) if r.winner == r.a else (vb, va)
        if best is None or (won - lost, won) > (best[0] - best[1], best[0]):
            best = (won, lost)
    return best or (len(ladder) + 1, 2)


def _build_table(entries: list, results: list[MatchResult], ladder: Sequence[str],
                 points: Mapping[str, float], forfeit_rule: Any) -> _Table:
    """Each entry's matches as _Side records, with levels and points resolved."""
    ladder_index = {level: i for i, level in enumerate(ladder)}
    if len(ladder_index) != len(ladder) or not ladder:
        raise UserError(gettext_noop("The ladder of levels is empty or repeats a level."), field="ladder")
    forfeit_levels = _forfeit_levels(results, forfeit_rule, ladder_index, ladder)
    pts = points_table(points, results)
    sides: dict = {e: [] for e in entries}
    for i, r in enumerate(results):
        va, vb = _match_levels(r, i, ladder_index, forfeit_levels)
        if r.winner is None:
            out_a = out_b = LOSS if r.forfeit else DRAW
        else:
            out_a, out_b = (WIN, LOSS) if r.winner == r.a else (LOSS, WIN)
        sides[r.a].append(_Side(r.b, out_a, va, vb, pts[out_a, r.forfeit], r.forfeit))
        sides[r.b].append(_Side(r.a, out_b, vb, va, pts[out_b, r.forfeit], r.forfeit))
    return _Table(entries, sides)


def _levels(r: MatchResult, i: int, ladder_index: Mapping[str, int]) -> tuple[int, int]:
    """The recorded final levels of a result as numbers (UserError naming the field)."""
    try:
        return ladder_index[r.level_a] + 2, ladder_index[r.level_b] + 2
    except (KeyError, TypeError):
        level_value(r.level_a, ladder_index, f"results[{i}].level_a")
        level_value(r.level_b, ladder_index, f"results[{i}].level_b")
        raise


def _match_levels(r: MatchResult, i: int, ladder_index, forfeit_levels) -> tuple[int, int]:
    """(a's value, b's value) for one result, applying the forfeit rule."""
    if r.forfeit and r.winner is None:
        return 0, 0
    if r.forfeit and forfeit_levels is not None:
        won, lost = forfeit_levels
        return (won, lost) if r.winner == r.a else (lost, won)
    return _levels(r, i, ladder_index)


# --------------------------------------------------------------------------- ranking
#: What a standings table shows of every entry whatever the order ranks by (a profile ranking by points and
#: net levels alone still shows each entry's total levels, not 0).
SHOWN = ("points", "net_levels", "total_levels")


@dataclass
class _Ranker:
    """Splits tied blocks metric by metric, in order, collecting ranked blocks."""

    table: _Table
    order: tuple[str, ...]
    metrics: Mapping[str, Metric]
    rng: random.Random | None
    values: dict = field(default_factory=dict)      # entry -> {metric: value}
    out: list = field(default_factory=list)          # (entries, decided_by, shared, pending)

    def run(self) -> None:
        for name in dict.fromkeys((*self.order, *SHOWN)):   # the order's metrics, then the table's columns
            metric = self.metrics.get(name)
            if metric is not None and not metric.contextual:
                for e, v in metric.fn(self.table, self.table.entries).items():
                    self.values.setdefault(e, {})[name] = v
        self.split(list(self.table.entries), 0, None)

    def split(self, block: list, i: int, decided_by: str | None) -> None:
        if len(block) == 1:
            self.out.append((block, decided_by, False, False))
        elif i == len(self.order):
            self.out.append((block, None, True, False))
        elif self.order[i] == "shared":
            self.out.append((block, "shared", True, False))
        elif self.order[i] == "lot":
            self.draw_lot(block)
        else:
            self.split_by(block, i, decided_by)

    def split_by(self, block: list, i: int, decided_by: str | None) -> None:
        name = self.order[i]
        metric = self.metrics[name]
        if metric.contextual:
            for e, v in metric.fn(self.table, block).items():
                self.values.setdefault(e, {})[name] = v
        key = {e: self.values[e][name] for e in block}
        ranked = sorted(block, key=lambda e: -key[e])  # stable: ties keep entry order
        groups: list[list] = []
        for e in ranked:
            if groups and key[groups[-1][0]] == key[e]:
                groups[-1].append(e)
            else:
                groups.append([e])
        if len(groups) == 1:
            self.split(block, i + 1, decided_by)
            return
        for g in groups:
            self.split(g, i + 1, name)

    def draw_lot(self, block: list) -> None:
        if self.rng is None:
            self.out.append((block, None, True, True))
            return
        drawn = list(block)
        self.rng.shuffle(drawn)
        for e in drawn:
            self.out.append(([e], "lot", False, False))


def compute_standings(
    entries: Sequence[Hashable],
    results: Sequence[Any],
    *,
    ladder: Sequence[str],
    points: Mapping[str, float] | None = None,
    order: Sequence[str] = ("points", "net_levels", "total_levels", "lot"),
    forfeit_rule: Any = "largest_margin",
    lot_seed: int | str | None = None,
    metrics: Mapping[str, Metric] | None = None,
) -> Standings:
    """Rank one group's entries from its finished results.

    ``points`` defaults to win 3, loss 0 (company-league); ``metrics`` adds to
    or overrides ``METRICS``. Rows come best first; entries level after the
    whole order share the better rank (standard competition ranking 1,2,2,4).
    """
    items = check_entries(entries)
    checked = check_results(items, results)
    if lot_seed is not None and (isinstance(lot_seed, bool) or not isinstance(lot_seed, (int, str))):
        raise UserError(gettext_noop("The seed of the lot must be a whole number or a text."), field="lot_seed")
    registry = {**METRICS, **(metrics or {})}
    names = check_order(order, registry)
    table = _build_table(items, checked, ladder, points or {WIN: 3, LOSS: 0}, forfeit_rule)
    ranker = _Ranker(table, names, registry, random.Random(lot_seed) if lot_seed is not None else None)
    ranker.run()
    rows = _rows(ranker, table)
    return Standings(tuple(rows), names, lot_seed, _notes(rows, lot_seed))


def _rows(ranker: _Ranker, table: _Table) -> list[StandingRow]:
    """Turn ranked blocks into rows with ranks and win/draw/loss counts."""
    rows = []
    position = 1
    for block, decided_by, shared, pending in ranker.out:
        for e in block:
            outcomes = [side.outcome for side in table.sides[e]]
            rows.append(StandingRow(
                rank=position, entry=e, values=dict(ranker.values.get(e, {})),
                decided_by=decided_by, shared=shared, lot_pending=pending,
                played=len(outcomes), wins=outcomes.count(WIN),
                draws=outcomes.count(DRAW), losses=outcomes.count(LOSS),
            ))
        position += len(block)
    return rows


NOTE_LOT = gettext_noop("Some places were drawn by lot, seed %(seed)s.")
NOTE_LOT_PENDING = gettext_noop("A tie awaits the lot.")


def note_messages(rows: Sequence[StandingRow], lot_seed: int | str | None) -> list[tuple[str, dict]]:
    """The notes to print under the table as (English msgid, parameters): lot drawn, or still to draw."""
    notes = []
    if any(r.decided_by == "lot" for r in rows):
        notes.append((NOTE_LOT, {"seed": lot_seed}))
    if any(r.lot_pending for r in rows):
        notes.append((NOTE_LOT_PENDING, {}))
    return notes


def _notes(rows: list[StandingRow], lot_seed: int | str | None) -> tuple[str, ...]:
    """The notes in English (a caller with a translator uses ``note_messages``)."""
    return tuple(message % params if params else message for message, params in note_messages(rows, lot_seed))

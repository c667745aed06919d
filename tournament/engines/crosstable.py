"""Pure crosstables: every entry's result against every other, from the same results as the standings."""
from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from tournament.engines.standings_input import DRAW, LOSS, WIN, MatchResult, check_entries, check_results

_OUTCOME_ZH = {WIN: "胜", LOSS: "负", DRAW: "平"}


class CrossResult(NamedTuple):
    """One meeting as seen from the row entry."""

    outcome: str  # "win", "loss" or "draw" ("loss" for both in a double forfeit)
    own_level: str | None
    opp_level: str | None
    forfeit: bool = False
    double_forfeit: bool = False

    @property
    def text(self) -> str:
        """Chinese cell text, e.g. "胜 A:10", "负（弃权）", "胜（对方弃权）"."""
        if self.double_forfeit:
            return "双方弃权"
        if self.forfeit:
            return "胜（对方弃权）" if self.outcome == WIN else "负（弃权）"
        levels = f" {self.own_level}:{self.opp_level}" if self.own_level and self.opp_level else ""
        return _OUTCOME_ZH[self.outcome] + levels


@dataclass(frozen=True)
class Crosstable:
    """The group's 对阵成绩表: ``cells[i][j]`` is row entry i against column entry j.

    A cell is a tuple of CrossResult (empty when not played yet; more than one
    when the pair met more than once); the diagonal is None.
    """

    entries: tuple
    cells: tuple[tuple[tuple[CrossResult, ...] | None, ...], ...]

    def text(self, i: int, j: int) -> str:
        """Cell text for display ("—" on the diagonal, "" when not played)."""
        cell = self.cells[i][j]
        return "—" if cell is None else " / ".join(r.text for r in cell)


def crosstable(entries: Sequence[Hashable], results: Sequence[Any]) -> Crosstable:
    """Build the crosstable of one group from its results (in result order)."""
    items = check_entries(entries)
    checked = check_results(items, results)
    index = {e: i for i, e in enumerate(items)}
    grid: list[list[list | None]] = [[None if i == j else [] for j in range(len(items))]
                                     for i in range(len(items))]
    for r in checked:
        ia, ib = index[r.a], index[r.b]
        grid[ia][ib].append(_cross(r, r.a, r.level_a, r.level_b))
        grid[ib][ia].append(_cross(r, r.b, r.level_b, r.level_a))
    cells = tuple(tuple(None if c is None else tuple(c) for c in row) for row in grid)
    return Crosstable(tuple(items), cells)


def _cross(r: MatchResult, me: Any, own: str | None, opp: str | None) -> CrossResult:
    """One meeting from ``me``'s side."""
    if r.winner is None:
        outcome = LOSS if r.forfeit else DRAW
    else:
        outcome = WIN if r.winner == me else LOSS
    return CrossResult(outcome, own, opp, r.forfeit, r.forfeit and r.winner is None)

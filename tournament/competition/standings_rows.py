"""What a standings table shows, for the round-robin groups (:mod:`tournament.competition.group_standings`)
and the Swiss stages (:mod:`tournament.competition.swiss_standings`) alike: an entry as the tables name it
(:class:`EntryInfo`), a row (:class:`RowView`), a group's table with its crosstable (:class:`GroupTable`), a
stage's tables (:class:`StageStandings`); the profile's standings rules as the pure ranking takes them
(:func:`standings_config`); and the words of a tie-break and of a place it decided (:func:`tie_note`). Read
only, no query: the two readers rank and load, this module names and says."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from django.utils.translation import gettext as _

from common.errors import gettext_noop
from tournament.engines import standings as pure
from tournament.models import Pair

TIE_BREAK_NAMES = {"shared_place": "shared"}  # profile name -> pure standings name
#: Each tie-break's name as a page says it (English msgids; the pure module's labels are its Chinese words).
METRIC_WORDS = {
    "points": gettext_noop("Points"), "net_levels": gettext_noop("Net levels"),
    "total_levels": gettext_noop("Total levels"), "wins": gettext_noop("Wins"),
    "head_to_head": gettext_noop("Points between the tied"), "buchholz": gettext_noop("Buchholz"),
    "lot": gettext_noop("Lot"), "shared": gettext_noop("Shared place"),
}


# --------------------------------------------------------------------------- rows and tables
@dataclass(frozen=True)
class EntryInfo:
    """An entry as shown in tables."""

    pair_id: int
    name: str
    unit: str
    withdrawn: bool = False
    status: str = ""

    @property
    def removed_label(self) -> str:
        """已退赛 for a pair that withdrew, 停赛 / 取消资格 for one the chief referee removed from the event
        (000 第十七条（八）), else "": its results stand, and every table says why it plays no more."""
        return str(Pair.Status(self.status).label) if self.status in Pair.GONE else ""


@dataclass(frozen=True)
class RowView:
    """One line of a group table; ``tie_note`` says which tie-break decided a tied place."""

    rank: int
    entry: EntryInfo
    played: int
    wins: int
    losses: int
    points: float
    net_levels: int
    total_levels: int
    decided_by: str | None
    tie_note: str
    shared: bool
    lot_pending: bool


@dataclass(frozen=True)
class GroupTable:
    """A group's standings and crosstable (对阵成绩表); the crosstable is built when first read (a page of
    standings or a final ranking never needs the 4,096 cells of a group of 64)."""

    group_id: int
    name: str
    rows: tuple[RowView, ...]
    entries: tuple[EntryInfo, ...]
    complete: bool
    played: int
    total: int
    notes: tuple[str, ...]
    order_labels: tuple[str, ...]
    title: str = ""   # as pages and printouts head it: "A组"; the stage's name when it is the stage's one group
    loader: object = field(default=None, repr=False, compare=False)  # reads the results when a crosstable needs them

    @cached_property
    def results(self) -> tuple:
        """The pure MatchResults counted (read, for every group of the same read at once, when first needed)."""
        return self.loader.of(self.group_id) if self.loader is not None else ()

    @cached_property
    def cross(self) -> tuple[tuple[str, ...], ...]:
        """cross[i][j]: row entry i against column entry j."""
        ids = [e.pair_id for e in self.entries]
        table = pure.crosstable(ids, self.results)
        words = {pure.WIN: _("Won"), pure.LOSS: _("Lost"), pure.DRAW: _("Drawn"), "walkover": _("Won (walkover)"),
                 "forfeit": _("Lost (forfeit)"), "both": _("Both forfeited")}
        return tuple(tuple(_cross_text(table.cells[i][j], words) for j in range(len(ids))) for i in range(len(ids)))


def _cross_text(cell, words) -> str:
    """One crosstable cell in the page's language, as ``CrossResult.text`` says it in Chinese: "胜 A:10",
    "负（弃权）"; "—" on the diagonal, "" when not played."""
    if cell is None:
        return "—"
    return " / ".join(_meeting_text(r, words) for r in cell)


def _meeting_text(r, words) -> str:
    if r.double_forfeit:
        return words["both"]
    if r.forfeit:
        return words["walkover"] if r.outcome == pure.WIN else words["forfeit"]
    levels = f" {r.own_level}:{r.opp_level}" if r.own_level and r.opp_level else ""
    return words[r.outcome] + levels


@dataclass(frozen=True)
class StageStandings:
    stage_id: int
    name: str
    groups: tuple[GroupTable, ...]

    @property
    def complete(self) -> bool:
        return bool(self.groups) and all(g.complete for g in self.groups)


# --------------------------------------------------------------------------- configuration
def standings_config(profile_data: dict, stage_settings: dict | None = None) -> dict:
    """Keyword arguments for the pure ``compute_standings`` from a profile and a stage's settings."""
    rules = (profile_data or {}).get("standings") or {}
    ladder = ((profile_data or {}).get("ladder") or {}).get("levels") or []
    points = {"win": rules.get("win", 3), "loss": rules.get("loss", 0)}
    for optional in ("draw", "forfeit_loss"):
        if optional in rules:
            points[optional] = rules[optional]
    order = tuple(TIE_BREAK_NAMES.get(n, n) for n in rules.get("tie_break") or ("points", "net_levels", "lot"))
    forfeit_rule = (stage_settings or {}).get("forfeit_rule") or rules.get("forfeit_rule") or "largest_margin"
    return {"ladder": ladder, "points": points, "order": order, "forfeit_rule": forfeit_rule}


def metric_label(name: str | None) -> str:
    """A tie-break's name in the page's language."""
    if name in METRIC_WORDS:
        return _(METRIC_WORDS[name])
    metric = pure.METRICS.get(name)
    return metric.label if metric else (name or "")


def tie_note(row: pure.StandingRow, order: tuple[str, ...], lot_seed) -> str:
    """"积分相同，由净胜级数决定" for a place decided by a tie-break; "" when not tied."""
    first = metric_label(order[0])
    if row.lot_pending:
        return _("Tied on %(first)s and every tie-break: a lot to draw") % {"first": first}
    if row.shared:
        return _("Tied on %(first)s and every tie-break: place shared") % {"first": first}
    if not row.decided_by or row.decided_by == order[0]:
        return ""
    if row.decided_by == "lot":
        return (_("Tied on %(first)s and every tie-break: drawn by lot (seed %(seed)s)")
                % {"first": first, "seed": lot_seed})
    return _("Tied on %(first)s, decided by %(by)s") % {"first": first, "by": metric_label(row.decided_by)}


def shown_tie_note(row: pure.StandingRow, order: tuple[str, ...], *, lot_seed, complete: bool) -> str:
    """The tie note a table shows: a lot decides (or is still to draw) only once the play it ranks is
    complete, so nothing says "抽签决定" while the places can still change: a place tied on everything so far
    says its order is provisional (before any match, nothing at all)."""
    if not complete and row.played == 0:
        return ""
    if not complete and (row.decided_by == "lot" or row.lot_pending):
        return _("Tied on %(first)s and every tie-break so far: the order is provisional") % {
            "first": metric_label(order[0])}
    return tie_note(row, order, lot_seed)

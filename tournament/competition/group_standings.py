"""Group standings and crosstables of the round-robin stages, computed from recorded results only (what the
tables show, shared with the Swiss standings: ``standings_rows``; the final places and awards: ``placings``).

Everything is derived from the Match rows (status, winner, final levels) with the pure
:mod:`tournament.engines.standings` module and the event's frozen profile (points, tie-break order); nothing
is typed in. What the ranking of a group gives is **kept** (``GroupStanding``, one row per group): the result
service (:mod:`tournament.competition.results`, the one writer of a result) ranks the group again from its
matches in the transaction that changes one of its results (a hand ending the match, a correction, a void,
an appeal's decision, a chief's decision, a walkover), :func:`keep_groups`; a page reads the kept rows, so
the cost of the standings does not grow with the number of results. A kept row holds while its ``basis``
(the entries, profile, forfeit rule, lot seed and reserve pairs it was ranked with) is the one its inputs
give now; else, or without a row, the reader ranks the group and stores the row. :func:`check_event` (and
``manage.py verify_standings``) compares the kept rows with a full recomputation.

Query budget: :func:`event_standings` reads an event of any size in a fixed number of queries
(profile, stages, groups with their kept rows, entries, draws: five; plus the decided matches of the
groups without a kept row, and of the groups whose crosstable is read), so standings of 64 groups cost the
same number of queries as those of one, after round 3 as at the end of the stage.

Forfeits and walkovers count per ``Stage.settings["forfeit_rule"]`` (else the profile's
``standings.forfeit_rule``, else "largest_margin": a win for the other side with the largest margin
seen in the group). Ties left by the profile's order end in a lot drawn with the seed
"<group draw seed>:<group name>", so the lot is as verifiable as the draw itself.
"""
from __future__ import annotations

import contextvars
import dataclasses
import hashlib
import json
from collections import defaultdict
from contextlib import contextmanager

from django.db import transaction
from django.db.models import Count, Exists
from django.utils.translation import gettext as _

from common.errors import UserError, gettext_noop
from tournament.competition.slot_holders import history, places_among
from tournament.competition.stages import CompetitionError
from tournament.competition.standings_rows import (
    EntryInfo,
    GroupTable,
    RowView,
    StageStandings,
    metric_label,
    shown_tie_note,
    standings_config,
)
from tournament.engines import standings as pure
from tournament.models import Draw, Group, GroupEntry, GroupStanding, Match, Pair, PairSubstitution, Stage
from tournament.models.competition import round_words

# --------------------------------------------------------------------------- loading
#: How a group's standings are read: KEPT (the kept row where it holds, else ranked and stored), RECOMPUTE
#: (ranked from the matches, nothing stored: the check), KEEP (ranked and stored: the result service).
KEPT, RECOMPUTE, KEEP = "kept", "recompute", "keep"
#: Bumped when what is kept, or how it is ranked, changes: every kept row is then ranked afresh once.
FORMAT = 1
_keeping = contextvars.ContextVar("standings_keeping", default=False)
# the fields of a Match that the standings read (a save naming none of them keeps the group's row)
_RANKED_FIELDS = frozenset({"status", "winner", "winner_id", "ns_level", "ew_level", "ns", "ns_id", "ew", "ew_id",
                            "group", "group_id"})


def _result(match: tuple, start_level: str) -> pure.MatchResult | None:
    """A finished match row as a pure MatchResult (None when it does not count yet)."""
    _, ns, ew, winner, ns_level, ew_level, status = match
    if ew is None or status not in Match.DECIDED:
        return None
    if status == Match.Status.FINISHED:
        if winner is None:
            return None
        return pure.MatchResult(ns, ew, winner, ns_level or start_level, ew_level or start_level)
    return pure.MatchResult(ns, ew, winner, ns_level or start_level, ew_level or start_level, forfeit=True)


class _Results:
    """The counted results of the groups of one read, read in one query when first needed: by the ranking of
    a group without a kept row, or by a crosstable (most pages never read them)."""

    def __init__(self, group_ids, start: str, place: dict):
        """``place``: {group id: {pair: the drawn slot it held in that group}} (reserve substitutions)."""
        self.wanted, self.start, self.place, self.by_group = list(group_ids), start, place, {}

    def load(self, group_ids) -> None:
        ids = [g for g in group_ids if g not in self.by_group]
        if not ids:
            return
        found = {g: [] for g in ids}
        # only the decided matches are read (a city's stage schedules 129,024 at its draw); the others are counted
        for row in (Match.objects.filter(group_id__in=ids, status__in=Match.DECIDED, ew__isnull=False)
                    .order_by("round_id", "table", "id")
                    .values_list("group_id", "ns_id", "ew_id", "winner_id", "ns_level", "ew_level", "status")):
            gid, ns, ew, winner, *rest = row
            place = self.place.get(gid, {})
            counted = _result((gid, place.get(ns, ns), place.get(ew, ew), place.get(winner, winner), *rest),
                              self.start)
            if counted is not None:
                found[gid].append(counted)
        self.by_group.update({g: tuple(r) for g, r in found.items()})

    def of(self, group_id) -> tuple:
        if group_id not in self.by_group:
            self.load(self.wanted)
        return self.by_group.get(group_id, ())


def _basis(config: dict, lot_seed, *, entry_ids: list, place: dict) -> str:
    """A digest of what a group's ranking reads besides its results (a kept row holds while it is the same)."""
    text = json.dumps([FORMAT, config, lot_seed, entry_ids, sorted(place.items())], sort_keys=True, default=str)
    return hashlib.sha1(text.encode()).hexdigest()


def _ranked(entry_ids: list, results: tuple, *, playable: int, config: dict, lot_seed) -> dict:
    """A group's standings as kept: the ranked rows, the results counted and the matches to play."""
    table = pure.compute_standings(entry_ids, results, lot_seed=lot_seed, **config)
    return {"rows": [[r.entry, r.rank, r.values.get("points", 0), r.values.get("net_levels", 0),
                      r.values.get("total_levels", 0), r.decided_by, r.shared, r.lot_pending, r.played, r.wins,
                      r.draws, r.losses] for r in table.rows],
            "played": len(results), "playable": playable, "order": list(table.order)}


def _rows_of(data: dict) -> list[pure.StandingRow]:
    return [pure.StandingRow(rank=rank, entry=entry, values={"points": p, "net_levels": net, "total_levels": total},
                             decided_by=decided_by, shared=shared, lot_pending=pending, played=played, wins=wins,
                             draws=draws, losses=losses)
            for entry, rank, p, net, total, decided_by, shared, pending, played, wins, draws, losses in data["rows"]]


def _group_table(group: dict, entries: list[EntryInfo], *, data: dict, lot_seed, title: str = "",
                 loader: _Results | None = None) -> GroupTable:
    """Standings of one group from its kept (or freshly ranked) data; the crosstable reads ``loader``."""
    info = {e.pair_id: e for e in entries}
    ranked = _rows_of(data)
    complete = _complete(data)
    order = tuple(data["order"])
    rows = tuple(
        RowView(rank=r.rank, entry=info[r.entry], played=r.played, wins=r.wins, losses=r.losses,
                points=_plain(r.values["points"]), net_levels=int(r.values["net_levels"]),
                total_levels=int(r.values["total_levels"]), decided_by=r.decided_by,
                tie_note=shown_tie_note(r, order, lot_seed=lot_seed, complete=complete), shared=r.shared,
                lot_pending=r.lot_pending)
        for r in ranked)
    return GroupTable(
        group_id=group["id"], name=group["name"], rows=rows, entries=tuple(entries), loader=loader,
        complete=complete, played=data["played"], total=data["playable"],
        notes=tuple(_(message) % params if params else _(message)
                    for message, params in pure.note_messages(ranked, lot_seed)) if complete else (),
        order_labels=tuple(metric_label(n) for n in order),
        title=title or Group.heading(group["name"], "", False))


def _plain(value):
    return int(value) if float(value).is_integer() else value


def _complete(data: dict) -> bool:
    return bool(data["playable"]) and data["played"] == data["playable"]


def _store(fresh: list[dict], mode: str) -> None:
    """Keep the groups just ranked: the result service's rows (locked) as they are now; a reader's only where
    no writer has stored another meanwhile (the row it found is still the one it replaces)."""
    if mode == KEEP:
        GroupStanding.objects.bulk_create([GroupStanding(group_id=g["id"], basis=g["basis"], data=g["data"])
                                           for g in fresh], update_conflicts=True, unique_fields=["group"],
                                          update_fields=["basis", "data"])
        return
    missing = [g for g in fresh if g.get("kept__basis") is None]
    if missing:
        GroupStanding.objects.bulk_create([GroupStanding(group_id=g["id"], basis=g["basis"], data=g["data"])
                                           for g in missing], ignore_conflicts=True)
    for g in fresh:
        if g.get("kept__basis") is not None:
            GroupStanding.objects.filter(group_id=g["id"], basis=g["kept__basis"]).update(basis=g["basis"],
                                                                                          data=g["data"])


def _ranked_groups(event, stage_filter: dict, group_ids=None, *, mode=KEPT):
    """(stages, groups each with its ranked ``data`` and ``lot_seed``, entries by group, holders, the results'
    loader), read and ranked as :func:`_load_stages` says."""
    profile_data = event.profile.data
    substituted = Exists(PairSubstitution.objects.filter(event_id=event.pk))
    stages = list(Stage.objects.filter(event=event, kind=Stage.Kind.ROUND_ROBIN, **stage_filter)
                  .annotate(substituted=substituted, group_count=Count("groups", distinct=True)).order_by("order")
                  .values("id", "name", "settings", "substituted", "group_count"))
    stage_ids = [s["id"] for s in stages]
    groups = Group.objects.filter(stage_id__in=stage_ids).order_by("order")
    if group_ids is not None:
        groups = groups.filter(pk__in=group_ids)
    groups = list(groups.values("id", "stage_id", "name", *(("kept__basis", "kept__data") if mode == KEPT else ())))
    if group_ids is not None:
        stages = [s for s in stages if any(g["stage_id"] == s["id"] for g in groups)]
        stage_ids = [s["id"] for s in stages]
    group_ids = [g["id"] for g in groups]
    entries = defaultdict(list)
    for gid, pid, name, unit, status in (
            GroupEntry.objects.filter(group_id__in=group_ids).order_by("group_id", "position")
            .values_list("group_id", "pair_id", "pair__name", "pair__unit__name", "pair__status")):
        entries[gid].append(EntryInfo(pid, name, unit, status in Pair.GONE, status))
    # a reserve pair's results count for the slot it holds in the group (003 二.2); read only when there are any
    holder, _origin, held = history(event.pk) if any(st["substituted"] for st in stages) else ({}, {}, {})
    place = {gid: places_among(held, [e.pair_id for e in infos]) for gid, infos in entries.items()} if held else {}
    seeds = dict(Draw.objects.filter(stage_id__in=stage_ids, kind=Draw.Kind.GROUPS, superseded_by__isnull=True)
                 .values_list("stage_id", "seed"))
    configs = {s["id"]: standings_config(profile_data, s["settings"]) for s in stages}
    fresh = []
    for g in groups:
        seed = seeds.get(g["stage_id"])
        g["lot_seed"] = f"{seed}:{g['name']}" if seed else None
        g["basis"] = _basis(configs[g["stage_id"]], g["lot_seed"], entry_ids=[e.pair_id for e in entries[g["id"]]],
                            place=place.get(g["id"], {}))
        g["data"] = g.get("kept__data") if g.get("kept__basis") == g["basis"] else None
        if g["data"] is None:
            fresh.append(g)
    ladder = profile_data.get("ladder", {}).get("levels") if profile_data else None
    loader = _Results(group_ids, ladder[0] if ladder else "2", place)
    if fresh:
        ids = [g["id"] for g in fresh]
        loader.load(ids)
        playable = dict(Match.objects.filter(group_id__in=ids, ew__isnull=False).order_by().values("group_id")
                        .annotate(n=Count("pk")).values_list("group_id", "n"))
        for g in fresh:
            try:
                g["data"] = _ranked([e.pair_id for e in entries[g["id"]]], loader.of(g["id"]),
                                    playable=playable.get(g["id"], 0), config=configs[g["stage_id"]],
                                    lot_seed=g["lot_seed"])
            except UserError:
                if mode != KEEP:
                    raise
                # records the ranking cannot read (a result of a pair not in the group): a result is never
                # refused for its derived standings; no row is kept, and a reader meets the error as it is
                g["data"] = None
        if mode == KEEP:
            GroupStanding.objects.filter(group_id__in=[g["id"] for g in fresh if g["data"] is None]).delete()
            fresh = [g for g in fresh if g["data"] is not None]
        if mode != RECOMPUTE:
            _store(fresh, mode)
    return stages, groups, entries, holder, loader


def _load_stages(event, stage_filter: dict, group_ids=None, *, complete_only=False,
                 mode=KEPT) -> list[StageStandings]:
    """Read and rank every round-robin stage matching ``stage_filter`` (a fixed number of queries); with
    ``group_ids``, only those groups (a page of the group tables), and only the stages holding them;
    ``complete_only``: only the groups whose play is complete (the qualifiers of a knock-out); ``mode``:
    :data:`KEPT`, :data:`RECOMPUTE` or :data:`KEEP`.

    A group's ranking is its kept row (``GroupStanding``: one row per group, whatever its number of results)
    when its basis is the one its inputs give now; otherwise the group's decided matches are read and ranked,
    and the row is stored for the next reader."""
    stages, groups, entries, holder, loader = _ranked_groups(event, stage_filter, group_ids, mode=mode)
    if any(held != pid for pid, held in holder.items()):
        names = dict(Pair.objects.filter(pk__in=set(holder.values())).values_list("pk", "name"))
        for gid, infos in entries.items():
            entries[gid] = [dataclasses.replace(e, name=f"{e.name} → {names[holder[e.pair_id]]}")
                            if holder.get(e.pair_id, e.pair_id) != e.pair_id else e for e in infos]
    if complete_only:
        groups = [g for g in groups if _complete(g["data"])]
    by_stage = defaultdict(list)
    for g in groups:
        by_stage[g["stage_id"]].append(g)
    out = []
    for s in stages:
        sole = round_words(s["name"]) if s["group_count"] == 1 else ""   # a single round robin is headed by its stage
        tables = tuple(_group_table(g, entries[g["id"]], data=g["data"], lot_seed=g["lot_seed"], title=sole,
                                    loader=loader)
                       for g in by_stage[s["id"]])
        out.append(StageStandings(s["id"], round_words(s["name"]), tables))
    return out


# --------------------------------------------------------------------------- kept standings
def keep_groups(event, group_ids) -> None:
    """The result service changed a result of these groups (in its transaction): rank them again from their
    matches and keep the rows. Each row is locked first (made if missing), so two tables of one group ending
    at once rank in turn, the second seeing the first's result."""
    ids = sorted({g for g in group_ids if g is not None})
    if not ids:
        return
    with transaction.atomic():   # the caller's transaction (a savepoint in it), or one of its own
        GroupStanding.objects.bulk_create([GroupStanding(group_id=g, basis="", data={}) for g in ids],
                                          ignore_conflicts=True)
        list(GroupStanding.objects.select_for_update().filter(group_id__in=ids).order_by("pk").values_list("pk"))
        _ranked_groups(event, {}, ids, mode=KEEP)


@contextmanager
def keeping():
    """Context: Match rows saved inside are the result service's, which keeps their groups' rows itself."""
    token = _keeping.set(True)
    try:
        yield
    finally:
        _keeping.reset(token)


def match_saved(sender, instance, update_fields=None, **kwargs) -> None:
    """Signal receiver (``post_save`` of Match, connected in ``tournament.apps``): a Match saved anywhere but
    the result service (the admin, a test, a script) drops its group's kept row; the next reader ranks it."""
    if instance.group_id is None or _keeping.get():
        return
    if update_fields is not None and not _RANKED_FIELDS.intersection(update_fields):
        return
    GroupStanding.objects.filter(group_id=instance.group_id).delete()


def check_event(event) -> list[str]:
    """The groups whose standings as the pages read them (kept rows) differ from a full recomputation from
    the matches (none: []); ``manage.py verify_standings``."""
    kept = _load_stages(event, {}, mode=KEPT)
    again = _load_stages(event, {}, mode=RECOMPUTE)
    found = []
    for stage, fresh in zip(kept, again):
        for table, wanted in zip(stage.groups, fresh.groups):
            if table != wanted:
                found.append(f"{stage.name} {table.name}: kept {table.rows!r}, recomputed {wanted.rows!r}")
    return found


def event_standings(event, group_ids=None) -> list[StageStandings]:
    """Standings and crosstables of every round-robin stage of the event, in stage order (``group_ids``:
    only those groups)."""
    return _load_stages(event, {}, group_ids)


def stage_standings(stage: Stage) -> StageStandings:
    """Standings and crosstables of one round-robin stage."""
    found = _load_stages(stage.event, {"pk": stage.pk})
    if not found:

        raise CompetitionError(gettext_noop("The stage %(stage)s is not a round robin: it has no standings."),
                               field="stage", stage=stage.label)
    return found[0]


def group_standings(group: Group) -> GroupTable:
    """Standings and crosstable of one group."""
    stage = stage_standings(group.stage)
    return next(g for g in stage.groups if g.group_id == group.pk)


def qualifiers(stage: Stage, per_group: int, standings: StageStandings | None = None) -> dict[str, int]:
    """Qualifier label ("A1", "B2", ...) -> pair id, for the groups whose play is complete (``standings``: the
    stage's standings when the caller has them)."""
    found = {}
    if standings is None:   # the kept rows' first places: no table is built (a bracket page asks at every render)
        _stages, groups, _entries, _holder, _loader = _ranked_groups(stage.event, {"pk": stage.pk})
        for g in groups:
            if _complete(g["data"]):
                for i, row in enumerate(g["data"]["rows"][:per_group]):
                    found[f"{g['name']}{i + 1}"] = row[0]
        return found
    for table in standings.groups:
        if table.complete:
            for i, row in enumerate(table.rows[:per_group]):
                found[f"{table.name}{i + 1}"] = row.entry.pair_id
    return found


def qualifier_order(stage: Stage, per_group: int) -> list[int]:
    """Qualifiers' pair ids, group winners first (in group order), then runners-up, ...

    Raises CompetitionError while a group's play is not complete.
    """

    result = stage_standings(stage)
    unfinished = [g.name for g in result.groups if not g.complete]
    if not result.groups or unfinished:
        if not result.groups:
            raise CompetitionError(gettext_noop("%(stage)s has not been drawn yet: its qualifiers are not known."),
                                   field="source", stage=stage.label)
        raise CompetitionError(gettext_noop("%(stage)s is not finished (%(groups)s): its qualifiers are not known yet."),
                               field="source", stage=stage.label, groups=unfinished)
    depth = max(len(g.rows) for g in result.groups)
    return [g.rows[place].entry.pair_id for place in range(min(per_group, depth))
            for g in result.groups if place < len(g.rows)]

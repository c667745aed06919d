"""Draws (抽签): every bit of chance comes from a seed recorded on a Draw row.

A Draw is append-only: a redo is a new Draw with ``supersedes=`` the one in force, and is allowed
only before the stage's first match starts. The seed is printed beside the result; re-running the
pure function in :mod:`tournament.engines.pairings` with the recorded ``params`` and ``seed`` gives the
recorded ``result``. Seeds default to a random string from :mod:`secrets`, or the organiser gives one.

Draw kinds here:

- groups: ``pairings.draw_groups`` over the stage's entries (entries of one unit spread over the
  groups, seeded entries snake-ordered), then the groups' Berger schedules;
- bracket: ``pairings.elimination_slots`` (seeded entries by seed number, the others in an order
  drawn with ``random.Random(seed)``; first-round unit separation), or ``pairings.cross_seed`` of the
  source stage's group qualifiers (A1 v B2, ...: no chance, the seed is still recorded);
- seats: ``pairings.draw_seats``: which pair sits North–South at each table of the stage;
- tables: ``pairings.draw_tables``: table numbers of each round (seed "<seed>:R<round>").

A void (作废, :func:`void_draws`) is append-only too: a new Draw of the same kind superseding each draw of the
stage in force, with ``params["void"]`` and the organiser's reason, and an empty result; the stage's groups,
rounds and matches go, and the stage may then be edited, deleted or drawn again (the next draw supersedes the
void). Like a redraw, it is refused once a match of the stage has started.
"""
from __future__ import annotations

import random
import secrets

from django.db import transaction
from django.db.models import Count

from common.errors import UserError, gettext_noop
from tournament.competition import group_standings, swiss_standings
from tournament.competition.knockout import active_draw, latest_draw  # noqa: F401 (active_draw: views, demo)
from tournament.competition.results import advance_bracket
from tournament.competition.stages import (
    CompetitionError,
    build_bracket_matches,
    build_round_robin,
    clear_stage,
    default_group_count,
    draws_in_force,
    places_played,
    play_records,
    stage_started,
)
from tournament.engines import pairings
from tournament.models import Draw, Match, Pair, Round, Stage

SEED_MAX_LENGTH = 64
REASON_MAX_LENGTH = 200

# A void's params and result per kind: the keys a draw of that kind always holds, empty (an event's transfer
# renumbers the ids in them: tournament.transfer.codec.remap_draw).
VOID_SHAPES = {
    Draw.Kind.GROUPS: ({"entries": [], "units": {}}, {"groups": []}),
    Draw.Kind.BRACKET: ({}, {"first_round": []}),
    Draw.Kind.SEATS: ({"matches": []}, {"seats": []}),
    Draw.Kind.TABLES: ({"matches": {}}, {"tables": {}}),
    Draw.Kind.SWISS: ({"entries": [], "ranking": [], "had_bye": [], "scores": {}, "units": {}, "played": []},
                      {"pairs": [], "rematches": []}),
}


def new_seed() -> str:
    """A fresh random seed (16 hex digits from :mod:`secrets`)."""
    return secrets.token_hex(8)


def clean_seed(seed) -> str:
    """The organiser's seed as text, or a new random one when empty."""
    text = "" if seed is None else str(seed).strip()
    if not text:
        return new_seed()
    if len(text) > SEED_MAX_LENGTH:
        raise CompetitionError(gettext_noop("The seed of the draw has at most %(most)s characters."),
                               field="seed", most=SEED_MAX_LENGTH)
    return text


def draw_history(stage: Stage) -> list[Draw]:
    """Every draw of the stage, newest first, superseded ones included."""
    return list(Draw.objects.filter(stage=stage).select_related("created_by", "supersedes")
                .order_by("-created_at", "-pk"))


def redraw_allowed(stage: Stage) -> bool:
    """A stage may be (re)drawn until its first match starts."""
    return not stage_started(stage)


def _lock(stage: Stage) -> Stage:
    """Lock the stage row for a draw and refuse once play began."""
    stage = Stage.objects.select_for_update(of=("self",)).select_related("event__profile", "source").get(pk=stage.pk)
    if stage_started(stage):
        raise CompetitionError(gettext_noop("A match of %(stage)s has started: it can no longer be drawn or redrawn."),
                               field="stage", stage=stage.label)
    return stage


def _record(stage: Stage, kind: str, seed: str, params: dict, result: dict, user) -> Draw:
    return Draw.objects.create(event=stage.event, stage=stage, kind=kind, seed=seed, params=params,
                               result=result, supersedes=latest_draw(stage, kind),
                               created_by=user if user is not None and user.is_authenticated else None)


def _pure(call, *args, **kwargs):
    """Call a pure pairing function, turning its UserError into a CompetitionError (same message and field)."""
    try:
        return call(*args, **kwargs)
    except UserError as exc:
        raise CompetitionError(exc.message, exc.field, **exc.params) from None


# --------------------------------------------------------------------------- entries
def event_entries(stage: Stage, entries) -> list[Pair]:
    """The stage's entries: the given pair ids, or every active (non-reserve) pair, seeded first."""
    pairs = Pair.objects.filter(event=stage.event)
    if entries is None:
        return list(pairs.filter(status=Pair.Status.ACTIVE, reserve=False).order_by("seed", "name", "pk"))
    ids = list(entries)
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise CompetitionError(gettext_noop("The list of entries repeats %(ids)s."), field="entries",
                               ids=", ".join(map(str, duplicates)))
    found = {p.pk: p for p in pairs.filter(pk__in=ids)}
    missing = [i for i in ids if i not in found]
    if missing:
        raise CompetitionError(gettext_noop("The entries %(ids)s are not in this event."), field="entries",
                               ids=list(missing))
    withdrawn = [found[i].name for i in ids if found[i].status != Pair.Status.ACTIVE]
    if withdrawn:
        raise CompetitionError(gettext_noop("Withdrawn entries cannot be drawn: %(names)s."), field="entries",
                               names=withdrawn)
    return sorted((found[i] for i in ids), key=lambda p: (p.seed is None, p.seed or 0, p.name, p.pk))


def seed_order(pairs: list[Pair], seed: str) -> list[int]:
    """Seeded pairs by seed number, then the unseeded ones in an order drawn by lot."""
    seeded = [p.pk for p in pairs if p.seed is not None]
    rest = [p.pk for p in pairs if p.seed is None]
    random.Random(seed).shuffle(rest)
    return seeded + rest


# --------------------------------------------------------------------------- groups
def draw_groups(stage: Stage, *, seed=None, n_groups: int | None = None, seeded: int | None = None,
                entries=None, user=None) -> Draw:
    """Draw the stage's entries into groups and schedule each group's round robin.

    Entries: the given pair ids, or all active pairs (first stage), or the source stage's
    qualifiers (group winners first). ``n_groups`` and ``seeded`` default to the stage settings,
    then groups of about four and every seeded pair. Nothing is saved when anything is wrong.
    """
    with transaction.atomic():
        stage = _lock(stage)
        if stage.kind != Stage.Kind.ROUND_ROBIN:
            raise CompetitionError(gettext_noop("%(stage)s is a knock-out: it has no group draw."), field="kind",
                                   stage=stage.label)
        options = stage.settings or {}
        seed = clean_seed(seed)
        if stage.source_id and entries is None:
            per_group = options.get("qualifiers_per_group", 2)
            ids = group_standings.qualifier_order(stage.source, per_group)
            pairs = event_entries(stage, ids)
            order = ids
            default_seeded = sum(1 for _ in stage.source.groups.all())
        else:
            pairs = event_entries(stage, entries)
            order = seed_order(pairs, seed)
            default_seeded = sum(1 for p in pairs if p.seed is not None)
        if len(pairs) < 2:
            raise CompetitionError(gettext_noop("Only %(count)s entries: groups need at least 2."), field="entries",
                                   count=len(pairs))
        n_groups = n_groups or options.get("n_groups") or default_group_count(len(pairs))
        if n_groups > len(pairs):
            raise CompetitionError(gettext_noop("%(groups)s groups are more than the %(entries)s pairs."),
                                   field="n_groups", groups=n_groups, entries=len(pairs))
        _check_fed_stages(stage, n_groups)
        seeded = default_seeded if seeded is None else seeded
        seeded = min(seeded, len(pairs))
        unit_of = {p.pk: p.unit_id for p in pairs}
        groups = _pure(pairings.draw_groups, order, n_groups, seed, unit_of.__getitem__, seeded=seeded)
        if any(len(g) < 2 for g in groups):
            raise CompetitionError(gettext_noop("With %(groups)s groups some group would have fewer than 2 entries."),
                                   field="n_groups", groups=n_groups)
        clear_stage(stage)
        build_round_robin(stage, groups)
        stage.settings = {**options, "n_groups": n_groups}
        stage.save(update_fields=["settings"])
        return _record(stage, Draw.Kind.GROUPS, seed,
                       {"entries": order, "n_groups": n_groups, "seeded": seeded,
                        "units": {str(k): v for k, v in unit_of.items()}},
                       {"groups": groups}, user)


def _check_fed_stages(stage: Stage, n_groups: int) -> None:
    """Refuse a regrouping that would break a later stage already drawn from these groups.

    A knock-out drawn from the groups holds places like "D1"; redrawing with the same number of groups
    keeps those places valid, a different number would leave some of them unfillable.
    """
    for fed in Draw.objects.filter(stage__source=stage, superseded_by__isnull=True).select_related("stage"):
        drawn_groups = len(fed.params.get("qualifiers", ())) or n_groups
        if drawn_groups != n_groups:
            raise CompetitionError(gettext_noop("%(stage)s was drawn from %(groups)s groups: regroup into "
                                                "%(groups)s groups too."),
                                   field="n_groups", stage=fed.stage.label, groups=drawn_groups)


# --------------------------------------------------------------------------- bracket
def _qualifier_labels(stage: Stage) -> list[list[str]]:
    """Per group of the source stage: "A1", "A2", ... for the qualifiers."""
    per_group = (stage.settings or {}).get("qualifiers_per_group", 2)
    names = list(stage.source.groups.order_by("order").values_list("name", flat=True))
    if not names:
        raise CompetitionError(gettext_noop("Draw the groups of %(stage)s first."), field="source",
                               stage=stage.source.name)
    sizes = dict(stage.source.groups.annotate(n=Count("memberships")).values_list("name", "n"))
    short = [n for n in names if sizes.get(n, 0) < per_group]
    if short:
        raise CompetitionError(gettext_noop("Groups %(groups)s have fewer entries than the %(count)s qualifiers "
                                            "per group."),
                               field="qualifiers_per_group", groups=short, count=per_group)
    return [[f"{name}{i + 1}" for i in range(per_group)] for name in names]


def draw_bracket(stage: Stage, *, seed=None, entries=None, user=None) -> Draw:
    """Draw the knock-out bracket and create all its matches; byes resolve at once.

    Fed by a group stage: the qualifiers are cross-seeded (A1 v B2, B1 v A2, ...) as placeholders
    that fill in as each group completes. Otherwise: ``elimination_slots`` over the entries in seed
    order (unseeded ones by lot) with first-round separation of entries of the same unit.
    """
    with transaction.atomic():
        stage = _lock(stage)
        if stage.kind != Stage.Kind.ELIMINATION:
            raise CompetitionError(gettext_noop("%(stage)s is a round robin: it has no bracket draw."), field="kind",
                                   stage=stage.label)
        seed = clean_seed(seed)
        places = places_played(stage)
        swiss_order = swiss_standings.knockout_entries(stage) if entries is None else None  # fed by a Swiss stage
        if stage.source_id and entries is None and swiss_order is None:
            labels = _qualifier_labels(stage)
            if sum(len(g) for g in labels) < 2:
                raise CompetitionError(gettext_noop("Fewer than 2 qualifiers: no knock-out can be drawn."),
                                       field="qualifiers_per_group")
            first_round = _pure(pairings.cross_seed, labels)
            params = {"qualifiers": labels, "places_played": places}
        else:
            pairs = event_entries(stage, swiss_order or entries)
            if len(pairs) < 2:
                raise CompetitionError(gettext_noop("Only %(count)s entries: a knock-out needs at least 2."),
                                       field="entries", count=len(pairs))
            order = swiss_order or seed_order(pairs, seed)
            unit_of = {p.pk: p.unit_id for p in pairs}
            first_round = _pure(pairings.elimination_slots, order, unit_of.__getitem__)
            params = {"entries": order, "places_played": places, "units": {str(k): v for k, v in unit_of.items()}}
        clear_stage(stage)
        build_bracket_matches(stage, first_round, places)
        draw = _record(stage, Draw.Kind.BRACKET, seed, params,
                       {"first_round": [list(pair) for pair in first_round]}, user)
        advance_bracket(stage)  # byes resolve in the same transaction as the draw
    return draw


# --------------------------------------------------------------------------- seats and tables
def _open_matches(stage: Stage):
    return Match.objects.filter(round__stage=stage, ns__isnull=False, ew__isnull=False).exclude(
        status__in=(Match.Status.BYE, Match.Status.WALKOVER)).order_by("round__number", "table", "pk")


def draw_seats(stage: Stage, *, seed=None, user=None) -> Draw:
    """Draw which pair sits North–South at every table of the stage whose entries are known."""
    with transaction.atomic():
        stage = _lock(stage)
        seed = clean_seed(seed)
        matches = list(_open_matches(stage))
        if not matches:
            raise CompetitionError(gettext_noop("%(stage)s has no match with both entries known yet to seat."),
                                   field="stage", stage=stage.label)
        given = [(m.ns_id, m.ew_id) for m in matches]
        seats = _pure(pairings.draw_seats, given, seed)
        for m, (ns, ew) in zip(matches, seats):
            if ns != m.ns_id:
                m.ns_id, m.ew_id = ns, ew
                m.ns_source, m.ew_source = m.ew_source, m.ns_source
        Match.objects.bulk_update(matches, ["ns", "ew", "ns_source", "ew_source"])
        return _record(stage, Draw.Kind.SEATS, seed,
                       {"matches": [[m.pk, a, b] for m, (a, b) in zip(matches, given)]},
                       {"seats": [[m.pk, ns, ew] for m, (ns, ew) in zip(matches, seats)]}, user)


def draw_tables(stage: Stage, *, seed=None, first_table: int | None = None, user=None) -> Draw:
    """Draw the table numbers of every round of the stage (a round's seed is "<seed>:R<number>")."""
    with transaction.atomic():
        stage = _lock(stage)
        seed = clean_seed(seed)
        first = first_table or (stage.settings or {}).get("first_table", 1)
        result, params = {}, {}
        for rnd in Round.objects.filter(stage=stage).order_by("number"):
            matches = list(Match.objects.filter(round=rnd, table__isnull=False).order_by("table", "pk"))
            if not matches:
                continue
            numbers = _pure(pairings.draw_tables, [(m.pk, 0) for m in matches], f"{seed}:R{rnd.number}", first)
            Match.objects.filter(pk__in=[m.pk for m in matches]).update(table=None)
            for m, number in zip(matches, numbers):
                m.table = number
            Match.objects.bulk_update(matches, ["table"])
            params[str(rnd.number)] = [m.pk for m in matches]
            result[str(rnd.number)] = numbers
        if not result:
            raise CompetitionError(gettext_noop("%(stage)s has no matches yet to number the tables of."),
                                   field="stage", stage=stage.label)
        return _record(stage, Draw.Kind.TABLES, seed, {"first_table": first, "matches": params},
                       {"tables": result}, user)


# --------------------------------------------------------------------------- voiding
def void_draws(stage: Stage, *, reason: str, user=None) -> list[Draw]:
    """Void every draw of the stage in force (its groups or bracket or Swiss rounds, seats, tables) and remove
    the groups, rounds and matches they built, so the stage can be edited, deleted or drawn anew.

    Append-only: each void is a new Draw superseding the one it voids, holding ``reason`` and who voided it.
    Refused once a match of the stage has started or anything was recorded at its tables, and while a later
    stage drawn from this one's qualifiers has its draw in force (void that one first).
    """
    text = " ".join(str(reason or "").split())
    if not text:
        raise CompetitionError(gettext_noop("Say why the draw is voided: the reason stays on record."),
                               field="reason")
    if len(text) > REASON_MAX_LENGTH:
        raise CompetitionError(gettext_noop("The reason has at most %(most)s characters."), field="reason",
                               most=REASON_MAX_LENGTH)
    with transaction.atomic():
        stage = Stage.objects.select_for_update(of=("self",)).select_related("event").get(pk=stage.pk)
        if stage_started(stage) or play_records(stage):
            raise CompetitionError(gettext_noop("Play has begun in %(stage)s: its draw can no longer be voided."),
                                   field="stage", stage=stage.label)
        in_force = draws_in_force(stage)
        if not in_force:
            raise CompetitionError(gettext_noop("%(stage)s has no draw in force to void."), field="stage",
                                   stage=stage.label)
        fed = sorted({d.stage.label for d in Draw.objects.filter(stage__source=stage, superseded_by__isnull=True)
                      .select_related("stage") if not d.is_void and d.stage.removed_at is None})
        if fed:
            raise CompetitionError(gettext_noop("%(stages)s was drawn from the qualifiers of %(stage)s: void its "
                                                "draw first."), field="stage", stage=stage.label, stages=fed)
        by = user if user is not None and user.is_authenticated else None
        voids = []
        for draw in in_force:
            params, result = VOID_SHAPES.get(draw.kind, ({}, {}))
            voids.append(Draw.objects.create(event=stage.event, stage=stage, kind=draw.kind, seed="",
                                             params={**params, "void": True, "reason": text}, result=dict(result),
                                             supersedes=draw, created_by=by))
        clear_stage(stage)
    return voids


DRAWERS = {
    Draw.Kind.GROUPS: draw_groups,
    Draw.Kind.BRACKET: draw_bracket,
    Draw.Kind.SEATS: draw_seats,
    Draw.Kind.TABLES: draw_tables,
}


def do_draw(stage: Stage, kind: str, **options) -> Draw:
    """Run the draw of ``kind`` for the stage (the one entry point for views and the API)."""
    drawer = DRAWERS.get(kind)
    if drawer is None:
        raise CompetitionError(gettext_noop("Unsupported draw kind %(kind)r."), field="kind", kind=kind)
    return drawer(stage, **options)

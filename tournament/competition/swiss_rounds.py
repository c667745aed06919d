"""A Swiss stage (瑞士制): create it, set its number of rounds, and pair each round from the standings.

Each round is a draw like the others: :func:`pair_next_round` ranks the entries by the standings after
the previous round (:mod:`.swiss_standings`; round 1: seeded entries by seed number, the others by lot),
calls the pure :func:`tournament.engines.pairings.swiss_round` and records a ``Draw`` of kind ``swiss``
(append-only) holding every input (``params``: round, ranking, scores, played, had_bye, units) and the
pairing (``result``: pairs, forced rematches, tables), so :func:`replay_pairing` re-runs it to the same
answer. The round's matches follow: a table per pair (ns: the higher-ranked entry), and the bye, if
any, through the result service (:func:`tournament.competition.results.give_swiss_bye`).

The next round is refused while the previous one has an undecided table, and once the planned rounds
are paired. A rematch is made only when no pairing avoids it; it is reported with the draw.
"""
from __future__ import annotations

from django.db import transaction

from common.errors import ConflictError, UserError, gettext_noop
from tournament.competition.draws import clean_seed, event_entries, seed_order
from tournament.competition.results import give_swiss_bye
from tournament.competition.rounds import undecided_tables
from tournament.competition.stages import MAX_SWISS_ROUNDS, create_stage
from tournament.competition.swiss_standings import first_draw, planned_rounds, stage_standings, suggested_rounds
from tournament.engines.pairings import swiss_round
from tournament.models import Draw, Event, Match, Pair, Round, Stage

SWISS_STAGE_NAME = "瑞士制"
MAX_ROUNDS = MAX_SWISS_ROUNDS


def _rounds(value) -> int | None:
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS:
        raise UserError(gettext_noop("The number of rounds must be a whole number from 1 to %(max)s."),
                        field="rounds", max=MAX_ROUNDS)
    return value


def suggestion(event: Event) -> int:
    """The suggested number of rounds for the event's active entries (ceil(log2 n) + 1)."""
    return suggested_rounds(Pair.objects.filter(event=event, status=Pair.Status.ACTIVE, reserve=False).count())


def create_swiss_stage(event: Event, *, name: str = "", rounds=None, settings: dict | None = None) -> Stage:
    """Add a Swiss stage after the event's last one; ``rounds`` defaults to the suggestion at round 1."""
    clean = dict(settings or {})
    rounds = _rounds(rounds)
    if rounds:
        clean["rounds"] = rounds
    return create_stage(event, Stage.Kind.SWISS, name=name or SWISS_STAGE_NAME, settings=clean)


@transaction.atomic
def set_rounds(stage: Stage, rounds) -> Stage:
    """Change the number of rounds (not below the rounds already paired)."""
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    _check_swiss(stage)
    rounds = _rounds(rounds)
    paired = Round.objects.filter(stage=stage).count()
    if rounds is None or rounds < paired:
        raise UserError(gettext_noop("%(paired)s rounds are already paired: the number of rounds cannot be lower."),
                        field="rounds", paired=paired)
    stage.settings = {**(stage.settings or {}), "rounds": rounds}
    stage.save(update_fields=["settings"])
    return stage


def _check_swiss(stage: Stage) -> None:
    if stage.kind != Stage.Kind.SWISS:
        raise UserError(gettext_noop("%(stage)s is not a Swiss stage."), field="stage", stage=stage.label)


def pair_next_round(stage: Stage, *, seed=None, user=None) -> Draw:
    """Pair the stage's next round from the standings after the last one; returns the recorded Draw."""
    with transaction.atomic():
        stage = (Stage.objects.select_for_update(of=("self",)).select_related("event__profile")
                 .get(pk=stage.pk))
        _check_swiss(stage)
        last = Round.objects.filter(stage=stage).order_by("-number").first()
        number = last.number + 1 if last else 1
        if last is not None:
            waiting = undecided_tables(last)
            if waiting:
                raise ConflictError(
                    gettext_noop("Round %(round)s still has undecided tables (%(tables)s): pair the next round "
                                 "once every table is decided."),
                    field="round", round=last.number, tables=", ".join(str(t) for t in waiting))
        seed = clean_seed(seed)
        inputs = _round_one(stage, seed) if last is None else _from_standings(stage, last.number)
        planned = planned_rounds(stage, len(inputs["entries"]))
        if number > planned:
            raise ConflictError(gettext_noop("All %(rounds)s rounds of %(stage)s are paired."), field="round",
                                rounds=planned, stage=stage.label)
        if len(inputs["ranking"]) < 2:
            raise UserError(gettext_noop("A Swiss round needs at least 2 entries; there are %(count)s."),
                            field="entries", count=len(inputs["ranking"]))
        params = {"round": number, **inputs}
        pairs = replay_params(params, seed)
        played = {frozenset(p) for p in inputs["played"]}
        rematches = [[a, b] for a, b in pairs if b is not None and frozenset((a, b)) in played]
        tables = _create_round(stage, number, pairs)
        if "rounds" not in (stage.settings or {}):
            stage.settings = {**(stage.settings or {}), "rounds": planned}
            stage.save(update_fields=["settings"])
        return Draw.objects.create(
            event=stage.event, stage=stage, kind=Draw.Kind.SWISS, seed=seed, params=params,
            result={"pairs": [list(p) for p in pairs], "rematches": rematches, "tables": tables},
            created_by=user if user is not None and user.is_authenticated else None)


def _round_one(stage: Stage, seed: str) -> dict:
    pairs = event_entries(stage, None)
    order = seed_order(pairs, seed)
    return {"entries": order, "ranking": order, "scores": {str(p): 0 for p in order}, "played": [],
            "had_bye": [], "units": {str(p.pk): p.unit_id for p in pairs}}


def _from_standings(stage: Stage, after: int) -> dict:
    entries = [int(e) for e in first_draw(stage).params["entries"]]
    result = stage_standings(stage, after_round=after)
    ranking = [row.entry.pair_id for row in result.rows if not row.entry.withdrawn]
    scores = {str(row.entry.pair_id): row.points for row in result.rows if not row.entry.withdrawn}
    played, had_bye = [], []
    for ns, ew in Match.objects.filter(round__stage=stage).order_by("round__number", "pk").values_list("ns_id", "ew_id"):
        if ew is None:
            had_bye.append(ns)
        else:
            played.append(sorted((ns, ew)))
    units = dict(Pair.objects.filter(pk__in=ranking).values_list("pk", "unit_id"))
    return {"entries": entries, "ranking": ranking, "scores": scores, "played": played,
            "had_bye": sorted(set(had_bye)), "units": {str(k): v for k, v in units.items()},
            "standings_seed": result.lot_seed}


def replay_params(params: dict, seed: str) -> list[tuple[int, int | None]]:
    """Run the pure pairing on recorded inputs (the same inputs and seed give the same pairs)."""
    return swiss_round(
        [int(e) for e in params["ranking"]],
        {int(k): v for k, v in params["scores"].items()},
        [frozenset(int(x) for x in p) for p in params["played"]],
        had_bye=frozenset(int(e) for e in params["had_bye"]),
        units={int(k): v for k, v in params["units"].items()},
        seed=seed)


def replay_pairing(draw: Draw) -> list[list]:
    """A recorded Swiss draw re-run from its params and seed (as lists, comparable to ``draw.result``)."""
    return [list(p) for p in replay_params(draw.params, draw.seed)]


def _create_round(stage: Stage, number: int, pairs) -> list:
    """The round and its matches: tables from ``first_table`` in pairing order, then the bye."""
    rnd = Round.objects.create(stage=stage, number=number, name=f"第{number}轮")
    table = (stage.settings or {}).get("first_table", 1)
    profile_id = stage.event.profile_id
    rows, numbers = [], []
    for a, b in pairs:
        if b is None:
            continue
        rows.append(Match(round=rnd, table=table, ns_id=a, ew_id=b, profile_id=profile_id,
                          status=Match.Status.SCHEDULED))
        numbers.append(table)
        table += 1
    Match.objects.bulk_create(rows)
    for a, b in pairs:
        if b is None:
            give_swiss_bye(rnd, a)
    return numbers


def round_draws(stage: Stage) -> dict[int, Draw]:
    """Round number -> the Swiss draw that paired it."""
    return {d.params.get("round"): d for d in Draw.objects.filter(stage=stage, kind=Draw.Kind.SWISS,
                                                                  superseded_by__isnull=True).order_by("pk")
            if not d.is_void}

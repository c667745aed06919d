"""Stages that chain: create them from the event's format, and build their rounds and matches.

A stage's structure (groups, rounds, matches) is built by a draw (:mod:`.draws`) and rebuilt by a
redraw; this module holds the builders, the options read from the event's rule profile with the
organiser's overrides in ``Stage.settings``, and the referee assignment rule.

Stage settings keys (all optional; the organiser may override each):

- round robin: ``n_groups`` (default: groups of about four), ``seeded`` (how many seeded entries are
  snake-placed; default: the entries with a seed number), ``first_table`` (default 1),
  ``qualifiers_per_group`` (when the stage takes qualifiers from ``source``; default 2),
  ``forfeit_rule`` ("largest_margin" (default), "recorded" or {"winner_level":..,"loser_level":..});
- elimination: ``places_played`` (2: joint thirds, 4: third-place match, 8: all quarter-finalists
  placed; default from the profile's ``format.rank_all_of``/``format.awards``), ``third_place_match``
  (true/false: shortcut override), ``qualifiers_per_group`` (when fed by a group stage; default 2),
  ``first_table``;
- swiss: ``rounds`` (1 to :data:`MAX_SWISS_ROUNDS`), ``first_table``;
- every kind: ``recorders`` (who records the hands: "referee", "players" or "either"; default: the event's
  ``hand_recorders``, :mod:`tournament.selfscore.modes`).

A stage is edited (:func:`update_stage`) or deleted (:func:`delete_stage`) only while no draw of it is in
force: once drawn, its draw is voided first (:func:`tournament.competition.draws.void_draws`, a new draw row
superseding each one in force: the history stays). A stage that never had a draw is deleted outright; one
whose draws were voided keeps its row, marked removed (``Stage.removed_at``), for those draws.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import UserError, gettext_noop
from infra import clock
from tournament import pagecache
from tournament.engines import brackets
from tournament.engines.pairings import round_robin
from tournament.models import Draw, Event, Group, GroupEntry, Match, Round, Stage
from tournament.models.competition import describe_key, describe_source  # noqa: F401  (re-exported for pages, printouts)
from tournament.selfscore import modes as recorders

GROUP_SIZE = 4  # default entries per group when the organiser gives no group count
MAX_SWISS_ROUNDS = 30
NAME_MAX_LENGTH = 100  # Stage.name

# The places a knock-out may play for, as the organiser picks them (brackets.py supports any power of two):
# the semi-final losers share 3rd; a third-place match; also the quarter-final losers play for 5th–8th.
PLACES_CHOICES = (
    (brackets.JOINT_THIRD, gettext_noop("Joint third places (no third-place match)")),
    (brackets.THIRD_PLACE_MATCH, gettext_noop("A third-place match (the quarter-final losers share 5th)")),
    (brackets.PLACE_QUARTER_FINALISTS, gettext_noop("A third-place match and 5th–8th played off")),
)

STAGE_NAMES = {
    "groups": "小组赛",
    "round_robin": "循环赛",
    "qualifiers_round_robin": "复赛（出线队循环赛）",
    "elimination": "淘汰赛",
}


class CompetitionError(UserError):
    """A request the competition cannot carry out (``field`` names the input at fault)."""


# --------------------------------------------------------------------------- options
def profile_format(profile) -> dict:
    """The ``format`` hints of a RuleProfile version (empty when absent)."""
    return dict((profile.data or {}).get("format") or {})


def _next_power_of_two(n: int) -> int:
    return 1 << max(1, (n - 1).bit_length())


def default_places_played(profile) -> int:
    """How many top places the knock-out plays for, from the profile's format hints.

    ``rank_all_of`` (e.g. 8: every quarter-finalist gets a place; 3: champion, runner-up and third
    → a third-place match) wins; else ``awards.third`` of 1 means a third-place match; otherwise the
    semi-final losers share third place (two joint thirds).
    """
    fmt = profile_format(profile)
    rank_all_of = fmt.get("rank_all_of")
    if rank_all_of:
        return _next_power_of_two(int(rank_all_of))
    awards = fmt.get("awards") or {}
    return brackets.THIRD_PLACE_MATCH if awards.get("third") == 1 else brackets.JOINT_THIRD


def places_played(stage: Stage) -> int:
    """The knock-out's ``places_played`` after the organiser's overrides in ``stage.settings``."""
    options = stage.settings or {}
    if options.get("places_played") is not None:
        return _check_places_played(options["places_played"])
    value = default_places_played(stage.event.profile)
    third = options.get("third_place_match")
    if third is True:
        value = max(value, brackets.THIRD_PLACE_MATCH)
    elif third is False and value == brackets.THIRD_PLACE_MATCH:
        value = brackets.JOINT_THIRD
    return value


def _check_places_played(value) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 2 or value & (value - 1):
        raise CompetitionError(gettext_noop("The number of places played must be a power of two (2, 4, 8…), not %(value)r."),
                               field="places_played", value=value)
    return value


def _positive_int(settings: dict, key: str, label: str) -> None:
    value = settings.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise CompetitionError(gettext_noop("%(label)s must be a positive whole number, not %(value)r."),
                               field=key, label=_(label), value=value)


def validate_settings(kind: str, settings: dict) -> dict:
    """Check an organiser's stage settings; returns a clean copy (CompetitionError naming the key)."""
    if not isinstance(settings, dict):
        raise CompetitionError(gettext_noop("The stage settings must be a mapping of names to values."),
                               field="settings")
    clean = dict(settings)
    for key, label in (("n_groups", gettext_noop("The number of groups")),
                       ("qualifiers_per_group", gettext_noop("The number of qualifiers per group")),
                       ("first_table", gettext_noop("The first table number"))):
        _positive_int(clean, key, label)
    if clean.get("seeded") != 0:
        _positive_int(clean, "seeded", gettext_noop("The number of seeded entries"))
    if clean.get("places_played") is not None:
        _check_places_played(clean["places_played"])
    if clean.get(recorders.STAGE_KEY) is not None:
        clean[recorders.STAGE_KEY] = recorders.check(clean[recorders.STAGE_KEY], recorders.STAGE_KEY)
    if "third_place_match" in clean and not isinstance(clean["third_place_match"], bool):
        raise CompetitionError(gettext_noop("Whether a third-place match is played must be true or false."),
                               field="third_place_match")
    if kind == Stage.Kind.ELIMINATION and clean.get("n_groups") is not None:
        raise CompetitionError(gettext_noop("A knock-out has no groups: the number of groups applies to round "
                                            "robins only."), field="n_groups")
    rounds = clean.get("rounds")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int)
                               or not 1 <= rounds <= MAX_SWISS_ROUNDS):
        raise CompetitionError(gettext_noop("The number of rounds must be a whole number from 1 to %(max)s."),
                               field="rounds", max=MAX_SWISS_ROUNDS)
    return clean


def _check_source(event: Event, kind: str, source: Stage | None, stage: Stage | None = None) -> None:
    """The qualifiers' source: a round-robin or Swiss stage of the event, before ``stage`` (when editing)."""
    if source is None:
        return
    if source.event_id != event.pk or source.removed_at is not None:
        raise CompetitionError(gettext_noop("The qualifiers' source is not a stage of this event."), field="source")
    if source.kind not in (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS):
        raise CompetitionError(gettext_noop("The qualifiers' source must be a round-robin or Swiss stage."), field="source")
    if kind == Stage.Kind.SWISS:
        raise CompetitionError(gettext_noop("A Swiss stage takes every active entry: it has no qualifiers' source."),
                               field="source")
    if stage is not None and source.order >= stage.order:
        raise CompetitionError(gettext_noop("The qualifiers must come from an earlier stage."), field="source")


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if len(name) > NAME_MAX_LENGTH:
        raise CompetitionError(gettext_noop("A stage name has at most %(most)s characters."), field="name",
                               most=NAME_MAX_LENGTH)
    return name


# --------------------------------------------------------------------------- stages
@transaction.atomic
def create_stage(event: Event, kind: str, *, name: str = "", source: Stage | None = None,
                 settings: dict | None = None) -> Stage:
    """Add a stage after the event's last one; ``source`` is the stage whose qualifiers it takes."""
    Event.objects.select_for_update().get(pk=event.pk)
    if kind not in Stage.Kind.values:
        raise CompetitionError(gettext_noop("Unknown stage kind %(kind)r."), field="kind", kind=kind)
    _check_source(event, kind, source)
    clean = validate_settings(kind, settings or {})
    name = _clean_name(name)
    last = Stage.all_stages.filter(event=event).order_by("-order").first()  # a removed stage keeps its number
    if not name:
        name = STAGE_NAMES["elimination" if kind == Stage.Kind.ELIMINATION
                          else "qualifiers_round_robin" if source else "groups"]
    return Stage.objects.create(event=event, kind=kind, name=name, source=source, settings=clean,
                                order=(last.order + 1) if last else 1)


def format_has_knockout(event: Event) -> bool:
    """Does the event's format end in a knock-out (whose places to play off the organiser picks)?"""
    return event.format in (Event.Format.ELIMINATION, Event.Format.GROUPS_ELIMINATION)


@transaction.atomic
def create_stages_from_format(event: Event, *, places_played: int | None = None) -> list[Stage]:
    """The event's stages with sensible defaults from ``Event.format``; existing stages are kept.

    round_robin: one group; elimination: one bracket; groups_elimination: groups of about four, then
    a knock-out of two qualifiers per group; groups_round_robin: groups, then one round robin of the
    qualifiers (company-league). ``places_played``: what the knock-out plays off (the organiser's answer,
    one of :data:`PLACES_CHOICES`; None: the rule profile's default, :func:`default_places_played`).
    """
    Event.objects.select_for_update().get(pk=event.pk)
    existing = list(event.stages.order_by("order"))
    if existing:
        return existing
    knockout = {} if places_played is None else {"places_played": _check_places_played(places_played)}
    fmt = Event.Format
    if event.format == fmt.ROUND_ROBIN:
        return [create_stage(event, Stage.Kind.ROUND_ROBIN, name=STAGE_NAMES["round_robin"],
                             settings={"n_groups": 1})]
    if event.format == fmt.ELIMINATION:
        return [create_stage(event, Stage.Kind.ELIMINATION, settings=knockout)]
    groups = create_stage(event, Stage.Kind.ROUND_ROBIN)
    if event.format == fmt.GROUPS_ROUND_ROBIN:
        second = create_stage(event, Stage.Kind.ROUND_ROBIN, source=groups,
                              settings={"n_groups": 1, "qualifiers_per_group": 2})
    else:
        second = create_stage(event, Stage.Kind.ELIMINATION, source=groups,
                              settings={"qualifiers_per_group": 2, **knockout})
    return [groups, second]


# --------------------------------------------------------------------------- editing and deleting
STRUCTURE_DRAWS = (Draw.Kind.GROUPS, Draw.Kind.BRACKET, Draw.Kind.SWISS)


def draws_in_force(stage: Stage) -> list[Draw]:
    """The stage's draws not superseded and not voids (groups, bracket, Swiss rounds, seats, tables)."""
    return [d for d in Draw.objects.filter(stage=stage, superseded_by__isnull=True).order_by("pk")
            if not d.is_void]


def is_drawn(stage: Stage) -> bool:
    """Has the stage a draw in force (its groups, bracket or a Swiss round), or rounds built by one?"""
    return (any(d.kind in STRUCTURE_DRAWS for d in draws_in_force(stage))
            or Round.objects.filter(stage=stage).exists())


def play_records(stage: Stage) -> bool:
    """Does anything recorded at the tables hang off the stage's rounds and matches (hands, rulings, the
    chief's decisions, lead reports, the clock, a round closed)? Those records are append-only: the rounds
    and matches they belong to can no longer be removed."""
    rounds = Round.objects.filter(stage=stage)
    matches = Match.objects.filter(round__stage=stage)
    return (rounds.filter(Q(clock_events__isnull=False) | Q(clock_firings__isnull=False)
                          | Q(closures__isnull=False)).exists()
            or matches.filter(Q(hands__isnull=False) | Q(rulings__isnull=False) | Q(result_decisions__isnull=False)
                              | Q(lead_reports__isnull=False) | Q(hand_allowance__isnull=False)).exists())


def _refuse_if_drawn(stage: Stage, message: str) -> None:
    if is_drawn(stage):
        raise CompetitionError(message, field="stage", stage=stage.label)


def editable(stage: Stage) -> bool:
    """A stage may be edited or deleted while no draw of it is in force."""
    return not is_drawn(stage)


KEEP = object()  # update_stage: leave the source as it is


@transaction.atomic
def update_stage(stage: Stage, *, name: str | None = None, settings: dict | None = None, source=KEEP) -> Stage:
    """Change a stage's name, settings (the whole new mapping, checked as :func:`validate_settings` does) and
    the stage its qualifiers come from; refused once the stage is drawn (void its draw first)."""
    stage = Stage.objects.select_for_update(of=("self",)).select_related("event").get(pk=stage.pk)
    _refuse_if_drawn(stage, gettext_noop("%(stage)s has been drawn: void its draw first, then change it."))
    fields = []
    if name is not None:
        clean = _clean_name(name)
        if not clean:
            raise CompetitionError(gettext_noop("A stage needs a name."), field="name")
        if clean != stage.name and clean == stage.label:   # the system's name as the page showed it: kept as made
            clean = stage.name
        stage.name = clean
        fields.append("name")
    if source is not KEEP:
        _check_source(stage.event, stage.kind, source, stage)
        stage.source = source
        fields.append("source")
    if settings is not None:
        stage.settings = validate_settings(stage.kind, settings)
        fields.append("settings")
    if fields:
        stage.save(update_fields=fields)
        pagecache.changed(stage.event_id)
    return stage


@transaction.atomic
def delete_stage(stage: Stage, *, user=None) -> bool:
    """Delete a stage with no draw in force. Returns True when the row went; False when the stage keeps its
    row, marked removed, because voided draws point at it (append-only). Refused while another stage takes
    its qualifiers from it."""
    stage = Stage.objects.select_for_update(of=("self",)).get(pk=stage.pk)
    _refuse_if_drawn(stage, gettext_noop("%(stage)s has been drawn: void its draw first, then delete it."))
    fed = [fed_stage.label for fed_stage in Stage.objects.filter(source=stage).order_by("order")]
    if fed:
        raise CompetitionError(gettext_noop("%(stages)s take their qualifiers from %(stage)s: delete or change "
                                            "them first."), field="stage", stage=stage.label, stages=fed)
    event_id = stage.event_id
    if Draw.objects.filter(stage=stage).exists() or Stage.all_stages.filter(source=stage).exists():
        stage.removed_at = clock.now()
        stage.removed_by = user if user is not None and user.is_authenticated else None
        stage.save(update_fields=["removed_at", "removed_by"])
        gone = False
    else:
        Group.objects.filter(stage=stage).delete()
        stage.delete()
        gone = True
    pagecache.changed(event_id)
    return gone


def default_group_count(n_entries: int) -> int:
    """Groups of about :data:`GROUP_SIZE` entries."""
    return max(1, round(n_entries / GROUP_SIZE))


def stage_started(stage: Stage) -> bool:
    """True once any match of the stage is being played or has a result from play or a ruling."""
    played = (Match.Status.PLAYING, Match.Status.FINISHED, Match.Status.FORFEIT)
    return Match.objects.filter(Q(status__in=played) | Q(started_at__isnull=False), round__stage=stage).exists()


def clear_stage(stage: Stage) -> None:
    """Remove the stage's groups, rounds and matches before a redraw rebuilds them (draws stay)."""
    Match.objects.filter(round__stage=stage).delete()
    Round.objects.filter(stage=stage).delete()
    Group.objects.filter(stage=stage).delete()
    pagecache.changed(stage.event_id)


def group_name(index: int) -> str:
    """A, B, ..., Z, then A2, B2, ... (enough for any event)."""
    lap, pos = divmod(index, 26)
    return chr(ord("A") + pos) + (str(lap + 1) if lap else "")


# --------------------------------------------------------------------------- round robin
def build_round_robin(stage: Stage, groups: list[list[int]]) -> None:
    """Create the groups (A, B, ...), their entries in draw order, and every round's matches.

    Berger tables per group (``pairings.round_robin``); round r of the stage holds round r of
    every group. Tables are numbered through the round, group A first; a bye is a match with no
    opponent and no table (status bye, no winner, no points).
    """
    first_table = (stage.settings or {}).get("first_table", 1)
    group_rows = Group.objects.bulk_create(
        [Group(stage=stage, name=group_name(i), order=i + 1) for i in range(len(groups))])
    GroupEntry.objects.bulk_create([
        GroupEntry(group=g, pair_id=pair_id, position=pos + 1)
        for g, members in zip(group_rows, groups) for pos, pair_id in enumerate(members)])
    schedules = [round_robin(members) for members in groups]
    n_rounds = max((len(s) for s in schedules), default=0)
    round_rows = Round.objects.bulk_create(
        [Round(stage=stage, number=r + 1, name=f"第{r + 1}轮") for r in range(n_rounds)])
    profile_id = stage.event.profile_id
    matches = []
    for r, round_row in enumerate(round_rows):
        table = first_table
        for g, schedule in zip(group_rows, schedules):
            for a, b in schedule[r] if r < len(schedule) else ():
                if b is None:
                    matches.append(Match(round=round_row, group=g, ns_id=a, profile_id=profile_id,
                                         status=Match.Status.BYE, result_note="轮空"))
                    continue
                matches.append(Match(round=round_row, group=g, table=table, ns_id=a, ew_id=b,
                                     profile_id=profile_id, status=Match.Status.SCHEDULED))
                table += 1
    Match.objects.bulk_create(matches)
    pagecache.changed(stage.event_id)


# --------------------------------------------------------------------------- elimination
def source_code(source: brackets.Source) -> str:
    """What ``Match.ns_source``/``ew_source`` says for a bracket side: "W:R1-M1", "L:R2-M1", "A1", "BYE"."""
    if source.kind == "winner":
        return f"W:{source.value}"
    if source.kind == "loser":
        return f"L:{source.value}"
    if source.kind == "bye":
        return "BYE"
    return source.value if isinstance(source.value, str) else ""


def build_bracket_matches(stage: Stage, first_round: list, places: int) -> brackets.Bracket:
    """Create the knock-out's rounds and every match slot (main bracket and placement matches).

    Matches of a later round wait (status pending) with ``ns_source``/``ew_source`` saying where their
    entries come from; first-round byes get no table. The sides are then filled by
    :func:`tournament.competition.results.advance_bracket`.
    """
    try:
        bracket = brackets.build_bracket([tuple(p) for p in first_round], places_played=places)
    except UserError as exc:
        raise CompetitionError(exc.message, exc.field, **exc.params) from None
    first_table = (stage.settings or {}).get("first_table", 1)
    names = {}
    for slot in bracket.matches:
        if not slot.key.startswith("P"):
            names.setdefault(slot.round_no, slot.label)
    round_rows = {n: Round(stage=stage, number=n, name=name) for n, name in sorted(names.items())}
    Round.objects.bulk_create(round_rows.values())
    tables = {n: first_table for n in round_rows}
    matches = []
    for slot in bracket.matches:
        is_bye = "bye" in (slot.a.kind, slot.b.kind)
        table = None if is_bye else tables[slot.round_no]
        if not is_bye:
            tables[slot.round_no] += 1
        matches.append(Match(round=round_rows[slot.round_no], bracket_key=slot.key, table=table,
                             ns_source=source_code(slot.a), ew_source=source_code(slot.b),
                             profile_id=stage.event.profile_id, status=Match.Status.PENDING))
    Match.objects.bulk_create(matches)
    pagecache.changed(stage.event_id)
    return bracket


def bracket_from_draw(draw) -> brackets.Bracket:
    """Rebuild the pure bracket model from a recorded bracket draw (result and params)."""
    first_round = [tuple(p) for p in draw.result["first_round"]]
    return brackets.build_bracket(first_round, places_played=draw.params["places_played"])

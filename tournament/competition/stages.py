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
  ``first_table``.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import UserError, gettext_noop
from tournament import brackets, pagecache
from tournament.models import Event, Group, GroupEntry, Match, Round, Stage
from tournament.pairings import round_robin

GROUP_SIZE = 4  # default entries per group when the organiser gives no group count

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
    if "third_place_match" in clean and not isinstance(clean["third_place_match"], bool):
        raise CompetitionError(gettext_noop("Whether a third-place match is played must be true or false."),
                               field="third_place_match")
    if kind == Stage.Kind.ELIMINATION and clean.get("n_groups") is not None:
        raise CompetitionError(gettext_noop("A knock-out has no groups: the number of groups applies to round "
                                            "robins only."), field="n_groups")
    return clean


# --------------------------------------------------------------------------- stages
@transaction.atomic
def create_stage(event: Event, kind: str, *, name: str = "", source: Stage | None = None,
                 settings: dict | None = None) -> Stage:
    """Add a stage after the event's last one; ``source`` is the stage whose qualifiers it takes."""
    Event.objects.select_for_update().get(pk=event.pk)
    if kind not in Stage.Kind.values:
        raise CompetitionError(gettext_noop("Unknown stage kind %(kind)r."), field="kind", kind=kind)
    if source is not None and source.event_id != event.pk:
        raise CompetitionError(gettext_noop("The qualifiers' source is not a stage of this event."), field="source")
    if source is not None and source.kind not in (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS):
        raise CompetitionError(gettext_noop("The qualifiers' source must be a round-robin or Swiss stage."), field="source")
    clean = validate_settings(kind, settings or {})
    last = event.stages.order_by("-order").first()
    if not name:
        name = STAGE_NAMES["elimination" if kind == Stage.Kind.ELIMINATION
                          else "qualifiers_round_robin" if source else "groups"]
    return Stage.objects.create(event=event, kind=kind, name=name, source=source, settings=clean,
                                order=(last.order + 1) if last else 1)


@transaction.atomic
def create_stages_from_format(event: Event) -> list[Stage]:
    """The event's stages with sensible defaults from ``Event.format``; existing stages are kept.

    round_robin: one group; elimination: one bracket; groups_elimination: groups of about four, then
    a knock-out of two qualifiers per group; groups_round_robin: groups, then one round robin of the
    qualifiers (company-league).
    """
    Event.objects.select_for_update().get(pk=event.pk)
    existing = list(event.stages.order_by("order"))
    if existing:
        return existing
    fmt = Event.Format
    if event.format == fmt.ROUND_ROBIN:
        return [create_stage(event, Stage.Kind.ROUND_ROBIN, name=STAGE_NAMES["round_robin"],
                             settings={"n_groups": 1})]
    if event.format == fmt.ELIMINATION:
        return [create_stage(event, Stage.Kind.ELIMINATION)]
    groups = create_stage(event, Stage.Kind.ROUND_ROBIN)
    if event.format == fmt.GROUPS_ROUND_ROBIN:
        second = create_stage(event, Stage.Kind.ROUND_ROBIN, source=groups,
                              settings={"n_groups": 1, "qualifiers_per_group": 2})
    else:
        second = create_stage(event, Stage.Kind.ELIMINATION, source=groups, settings={"qualifiers_per_group": 2})
    return [groups, second]


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


def describe_source(code: str) -> str:
    """A side still to be decided in the active language, e.g. "R1-M1 胜者", "A组第1名", "轮空"."""
    if code.startswith("W:"):
        return _("Winner of %(match)s") % {"match": code[2:]}
    if code.startswith("L:"):
        return _("Loser of %(match)s") % {"match": code[2:]}
    if code == "BYE":
        return str(_("Bye"))
    if code and code[-1].isdigit():
        head = code.rstrip("0123456789")
        return _("Group %(group)s, place %(place)s") % {"group": head, "place": code[len(head):]}
    return code


def build_bracket_matches(stage: Stage, first_round: list, places: int) -> brackets.Bracket:
    """Create the knock-out's rounds and every match slot (main bracket and placement matches).

    Matches of a later round wait (status pending) with ``ns_source``/``ew_source`` saying where their
    entries come from; first-round byes get no table. The sides are then filled by
    :func:`tournament.competition.progress.advance_bracket`.
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

"""Entries before the draw: pairs, players, teams and individual sign-ups drawn into pairs.

Every write runs in ``transaction.atomic()`` and locks the event row first, so two organisers (or an
import and a form) never interleave; a refused change raises :class:`EntryError` (a ``ValueError``
with the input ``field`` it is about; :class:`EntryConflict`, the API's 409, when the entries are locked)
and leaves nothing half-saved.

Decisions (documented here because the rules are silent):

- Who is the same person. With a phone on both sides, the phone decides; otherwise the same name in
  the same unit is the same person. The same phone under another name is refused; the same person
  under another unit is refused ("a player of another unit in a pair of a unit": both players of a
  pair belong to the pair's unit, and nobody plays for two units).
- A player is in at most one active pair, and not both in a pair and in an unpaired sign-up.
- Withdrawn pairs keep their name (names are unique per event, withdrawn or not).
- Teams: when the event's rule profile has ``format.team`` (``{pairs, women_pairs, reserve_pairs}``)
  every pair must belong to a team of its own unit. Adding never overfills a team (regular pairs,
  reserve pairs, and the regular places still needed for women's pairs); completeness is checked by
  :func:`team_problems` / :func:`check_entries_ready` (import, the entries page, and the draws).
  A women's pair is a pair of two female players; a reserve pair may be of any gender.
- Entries are locked once the event has any draw other than the partner draw, or any match started.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import UserError, gettext_noop
from common.names import clean_name
from tournament.entries import limits
from tournament.models import Draw, Event, Match, Pair, Player, Registration, Team, Unit

GENDER_WORDS = {
    "男": Player.Gender.MALE, "m": Player.Gender.MALE, "male": Player.Gender.MALE,
    "女": Player.Gender.FEMALE, "f": Player.Gender.FEMALE, "female": Player.Gender.FEMALE,
}
STARTED = (*Match.PLAYED, Match.Status.WALKOVER)


class EntryError(UserError):
    """A refused entry change. ``field`` names the input (``unit``, ``name``, ``player1``, ``phone2``, ...)."""


class EntryConflict(EntryError):
    """A change the entries' state no longer allows (locked by the draw or by play, a withdrawn pair): the
    API's 409, shown on the pages as any other EntryError."""

    status = 409
    code = "conflict"


@dataclass(frozen=True)
class PlayerData:
    """A player as typed in: name, gender ("M"/"F" or 男/女) and an optional phone."""

    name: str
    gender: str
    phone: str = ""


@dataclass(frozen=True)
class PairData:
    """A pair as typed in. ``name`` may be empty (then "选手1/选手2" is used)."""

    unit: str
    player1: PlayerData
    player2: PlayerData
    name: str = ""
    seed: int | None = None
    team: str = ""
    reserve: bool = False


@dataclass(frozen=True)
class TeamRule:
    """The profile's team rule: regular pairs, how many of them women's pairs, reserve pairs."""

    pairs: int
    women_pairs: int
    reserve_pairs: int

    def describe(self) -> str:
        """The rule in a phrase, in the active language."""
        return _("%(pairs)s regular pairs (%(women)s of them women's pairs) and %(reserves)s reserve pairs needed") % {
            "pairs": self.pairs, "women": self.women_pairs, "reserves": self.reserve_pairs}


@dataclass(frozen=True)
class TeamProblem:
    """What is wrong with one team, in a sentence ready to show."""

    team: str
    message: str


# --------------------------------------------------------------------------- reading the rules
def team_rule(event: Event) -> TeamRule | None:
    """The team rule from the event's frozen profile data (``format.team``), or None."""
    data = ((event.profile.data or {}).get("format") or {}).get("team")
    if not data:
        return None
    return TeamRule(int(data["pairs"]), int(data["women_pairs"]), int(data["reserve_pairs"]))


def partners_by_lot(event: Event) -> bool:
    """Whether the profile draws partners by lot (``format.partners_by_lot``)."""
    return bool(((event.profile.data or {}).get("format") or {}).get("partners_by_lot"))


LOCKED_BY_DRAW = gettext_noop("The draw (groups or bracket) has been made: entries are locked and can no longer be "
                              "added, changed or replaced (withdrawals are still possible).")
LOCKED_BY_PLAY = gettext_noop("Play has begun: entries are locked and can no longer be added, changed or replaced "
                              "(withdrawals are still possible).")


def entries_locked_msgid(event: Event) -> str | None:
    """Why entries can no longer change, as an English msgid (a draw other than the partner draw, or a started
    match), or None."""
    if event.draws.exclude(kind=Draw.Kind.PAIRS).exists():
        return LOCKED_BY_DRAW
    started = Match.objects.filter(round__stage__event=event).filter(
        Q(status__in=STARTED) | Q(started_at__isnull=False))
    if started.exists():
        return LOCKED_BY_PLAY
    return None


def entries_locked_reason(event: Event) -> str | None:
    """Why entries can no longer change, in the active language, or None."""
    reason = entries_locked_msgid(event)
    return _(reason) if reason else None


def open_event(event: Event) -> Event:
    """Lock the event row for this transaction and refuse if entries are locked."""
    locked = Event.objects.select_for_update().select_related("profile").get(pk=event.pk)
    reason = entries_locked_msgid(locked)
    if reason:
        raise EntryConflict(reason)
    return locked


# --------------------------------------------------------------------------- cleaning input
def clean_gender(value, field: str) -> str:
    """"M"/"F" from 男/女/M/F/male/female; anything else is an EntryError on ``field``."""
    gender = GENDER_WORDS.get(str(value or "").strip().lower())
    if gender is None:
        raise EntryError(gettext_noop("The gender can only be “M” or “F”, not “%(value)s”."), field, value=value or "")
    return gender


def clean_player(data: PlayerData, slot: int) -> PlayerData:
    name = clean_name(data.name)
    if not name:
        raise EntryError(gettext_noop("Enter the name of player %(slot)s."), f"player{slot}", slot=slot)
    limits.check_lengths(EntryError, **{f"player{slot}": name})
    phone = (data.phone or "").strip()
    if len(phone) > 30:
        raise EntryError(gettext_noop("The phone of player %(slot)s is too long (at most 30 digits)."),
                         f"phone{slot}", slot=slot)
    return PlayerData(name, clean_gender(data.gender, f"gender{slot}"), phone)


def clean_pair(data: PairData) -> PairData:
    unit = clean_name(data.unit)
    if not unit:
        raise EntryError(gettext_noop("Enter the unit."), "unit")
    p1, p2 = clean_player(data.player1, 1), clean_player(data.player2, 2)
    if same_person(p1, unit, p2, unit):
        raise EntryError(gettext_noop("Player 1 and player 2 are the same person: a pair needs two different "
                                      "players."), "player2")
    seed = data.seed
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 1):
        raise EntryError(gettext_noop("The seed number must be a positive whole number, not “%(value)s”."), "seed",
                         value=seed)
    if seed is not None and seed > limits.MAX_SEED:
        raise EntryError(gettext_noop("The seed number can be at most %(most)s."), "seed", most=limits.MAX_SEED)
    name = clean_name(data.name) or f"{p1.name}/{p2.name}"
    team = clean_name(data.team)
    limits.check_lengths(EntryError, unit=unit, name=name, team=team)   # the form's limits, for imports too
    if data.reserve and not team:
        raise EntryError(gettext_noop("A reserve pair must belong to a team: enter the team."), "team")
    return PairData(unit, p1, p2, name, seed, team, bool(data.reserve))


def same_person(a: PlayerData, a_unit: str, b: PlayerData, b_unit: str) -> bool:
    if a.phone and b.phone:
        return a.phone == b.phone
    return a.name == b.name and a_unit == b_unit


# --------------------------------------------------------------------------- conflicts
def _busy_players(event: Event, exclude_pair: Pair | None = None):
    """(player, where) for every player in an active pair or an active unpaired sign-up."""
    pairs = event.pairs.filter(status=Pair.Status.ACTIVE).select_related("player1__unit", "player2__unit")
    if exclude_pair is not None:
        pairs = pairs.exclude(pk=exclude_pair.pk)
    for pair in pairs:
        yield pair.player1, pair
        yield pair.player2, pair
    regs = event.registrations.filter(status=Registration.Status.ACTIVE, pair__isnull=True)
    for reg in regs.select_related("player__unit"):
        yield reg.player, None


def check_player_free(event: Event, data: PlayerData, unit: str, slot: int, exclude_pair=None,
                       exclude_player_ids=()) -> None:
    """Refuse a player who is already entered, plays for another unit, or shares a phone."""
    for other, pair in _busy_players(event, exclude_pair):
        if other.pk in exclude_player_ids:
            continue
        other_data = PlayerData(other.name, other.gender, other.phone)
        if data.phone and data.phone == other.phone and data.name != other.name:
            raise EntryError(gettext_noop("The phone %(phone)s is already registered to the player “%(name)s” "
                                          "(%(unit)s)."), f"phone{slot}",
                             phone=data.phone, name=other.name, unit=other.unit.name)
        if not same_person(data, unit, other_data, other.unit.name):
            continue
        if other.unit.name != unit:
            raise EntryError(gettext_noop("The player “%(name)s” is already entered for the unit “%(other)s” and "
                                          "cannot also play for “%(unit)s”."), f"player{slot}",
                             name=data.name, other=other.unit.name, unit=unit)
        if pair:
            raise EntryError(gettext_noop("The player “%(name)s” (%(unit)s) is already in “%(pair)s”: a player "
                                          "plays in one pair only."), f"player{slot}",
                             name=data.name, unit=unit, pair=pair.name)
        raise EntryError(gettext_noop("The player “%(name)s” (%(unit)s) has already signed up alone: cancel that "
                                      "sign-up first."), f"player{slot}", name=data.name, unit=unit)


def check_duplicate_pair(event: Event, data: PairData, exclude_pair=None) -> None:
    """Refuse the same two players as an existing active pair (clearer than "player already in a pair")."""
    pairs = event.pairs.filter(status=Pair.Status.ACTIVE, unit__name=data.unit).select_related("player1", "player2")
    if exclude_pair is not None:
        pairs = pairs.exclude(pk=exclude_pair.pk)
    for pair in pairs:
        existing = [PlayerData(p.name, p.gender, p.phone) for p in (pair.player1, pair.player2)]
        if all(any(same_person(new, data.unit, old, data.unit) for old in existing)
               for new in (data.player1, data.player2)):
            raise EntryError(gettext_noop("Entered twice: “%(pair)s” already has these two players."), "player1",
                             pair=pair.name)


def check_name_and_seed(event: Event, data: PairData, exclude_pair=None) -> None:
    others = event.pairs.all() if exclude_pair is None else event.pairs.exclude(pk=exclude_pair.pk)
    if others.filter(name=data.name).exists():
        raise EntryError(gettext_noop("The pair name “%(name)s” is taken: choose another."), "name", name=data.name)
    if data.seed is not None:
        holder = others.filter(status=Pair.Status.ACTIVE, seed=data.seed).first()
        if holder:
            raise EntryError(gettext_noop("The seed number %(seed)s is already given to “%(pair)s”."), "seed",
                             seed=data.seed, pair=holder.name)


# --------------------------------------------------------------------------- teams
def is_women(gender1: str, gender2: str) -> bool:
    return gender1 == Player.Gender.FEMALE and gender2 == Player.Gender.FEMALE


def resolve_team(event: Event, rule: TeamRule | None, name: str, unit: Unit) -> Team | None:
    """The named team of ``unit`` (created when new); required when the profile has a team rule."""
    if not name:
        if rule is not None:
            raise EntryError(gettext_noop("This event's rules put every pair in a team (%(rule)s): enter the team."),
                             "team", rule=rule.describe())
        return None
    team = event.teams.select_related("unit").filter(name=name).first()
    if team is None:
        return Team.objects.create(event=event, unit=unit, name=name)
    if team.unit_id != unit.pk:
        raise EntryError(gettext_noop("The team “%(team)s” belongs to the unit “%(team_unit)s” and cannot take a "
                                      "pair of “%(unit)s”."), "team", team=name, team_unit=team.unit.name,
                         unit=unit.name)
    return team


def check_team_room(team: Team | None, rule: TeamRule | None, reserve: bool, women: bool,
                     exclude_pair=None) -> None:
    """Refuse a pair that would overfill its team or take a place a women's pair still needs."""
    if team is None or rule is None:
        return
    members = team.pairs.filter(status=Pair.Status.ACTIVE).select_related("player1", "player2")
    if exclude_pair is not None:
        members = members.exclude(pk=exclude_pair.pk)
    regular = [p for p in members if not p.reserve]
    reserves = len(members) - len(regular)
    if reserve:
        if reserves >= rule.reserve_pairs:
            raise EntryError(gettext_noop("The team “%(team)s” has all its reserve pairs (%(rule)s)."), "reserve",
                             team=team.name, rule=rule.describe())
        return
    if len(regular) >= rule.pairs:
        raise EntryError(gettext_noop("The team “%(team)s” has all its regular pairs (%(rule)s)."), "team",
                         team=team.name, rule=rule.describe())
    women_now = sum(is_women(p.player1.gender, p.player2.gender) for p in regular)
    missing_women = max(0, rule.women_pairs - women_now)
    if not women and rule.pairs - len(regular) <= missing_women:
        raise EntryError(gettext_noop("The team “%(team)s” still needs %(count)s women's pairs: its remaining "
                                      "regular places are for women's pairs (%(rule)s)."), "gender1",
                         team=team.name, count=missing_women, rule=rule.describe())


def team_problems(event: Event) -> list[TeamProblem]:
    """Every team that breaks the profile's team rule, with exactly what is wrong (empty if none)."""
    rule = team_rule(event)
    if rule is None:
        return []
    problems = []
    for team in event.teams.prefetch_related("pairs__player1", "pairs__player2").order_by("name"):
        active = [p for p in team.pairs.all() if p.status == Pair.Status.ACTIVE]
        faults = team_faults(rule, active)
        if faults:
            problems.append(TeamProblem(team.name, _("The team “%(team)s”, %(rule)s: %(faults)s") % {
                "team": team.name, "rule": rule.describe(), "faults": _("; ").join(faults)}))
    return problems


def team_faults(rule: TeamRule, active: list[Pair]) -> list[str]:
    regular = [p for p in active if not p.reserve]
    reserves = len(active) - len(regular)
    women = sum(is_women(p.player1.gender, p.player2.gender) for p in regular)
    faults = []
    if len(regular) < rule.pairs:
        faults.append(_("only %(have)s regular pairs, %(missing)s missing") % {
            "have": len(regular), "missing": rule.pairs - len(regular)})
    elif len(regular) > rule.pairs:
        faults.append(_("%(have)s regular pairs, %(extra)s too many") % {
            "have": len(regular), "extra": len(regular) - rule.pairs})
    if women < rule.women_pairs:
        faults.append(_("no women's pair") if women == 0 and rule.women_pairs == 1
                      else _("only %(have)s women's pairs, %(missing)s missing") % {
                          "have": women, "missing": rule.women_pairs - women})
    if reserves < rule.reserve_pairs:
        faults.append(_("reserve pairs missing (%(need)s needed, %(have)s entered)") % {
            "need": rule.reserve_pairs, "have": reserves})
    elif reserves > rule.reserve_pairs:
        faults.append(_("%(have)s reserve pairs, %(extra)s too many") % {
            "have": reserves, "extra": reserves - rule.reserve_pairs})
    return faults


def check_entries_ready(event: Event) -> None:
    """For the draws: raise EntryError listing every broken team (and any unpaired sign-up)."""
    messages = [p.message for p in team_problems(event)]
    waiting = event.registrations.filter(status=Registration.Status.ACTIVE, pair__isnull=True).count()
    if waiting:
        messages.append(_("%(count)s players who signed up alone have not been drawn into pairs yet") % {
            "count": waiting})
    if messages:
        raise EntryError(gettext_noop("The entries are not ready for the draw: %(problems)s"), "team",
                         problems=_("; ").join(messages))

"""Referees over blocks of tables: one referee (a floor referee) for tables ``first``..``last`` of a round,
or of every round of a stage, in one step; several referees share a range in equal consecutive blocks.

    table_bounds(rounds) -> (lowest, highest)          the table numbers the rounds hold (no bye)
    check_range(rounds, first, last)                   UserError on the field at fault
    split(first, last, referees) -> list[Block]        a range shared out in consecutive blocks
    assign_blocks(stage, rounds=..., blocks=...) -> BlockOutcome

The rule of :mod:`tournament.competition.referees` holds: never a table where the referee's unit plays.
Such a table inside a block is handed to another referee of the same step when there is one (the
neighbouring block's, then the next), else left as it is; the outcome names each, for the page to say.
A block's referee becomes the table's one referee (as a cell of the grid does); a finished table and a bye
are left alone. One transaction: either the whole step is saved or nothing. The links are written in
bulk (a 2,048-table round in a handful of queries), so the per-link ``m2m_changed`` guard is not
called: the same unit check is made here, for every table at once, before anything is written.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max, Min

from common.errors import UserError, gettext_noop
from common.names import display_name, full_name
from tournament.competition.referees import referees_of
from tournament.models import Match, RefereeUnit, Stage

LISTED_AT_MOST = 30   # tables named one by one in a page's sentence; past it, "… and n more"


@dataclass(frozen=True)
class Block:
    """Tables ``first``..``last`` (both included) for ``referee`` (a user)."""

    referee: object
    first: int
    last: int


@dataclass(frozen=True)
class Handed:
    """A table of ``referee``'s own unit inside their block: given to ``to`` (a user), or to nobody (None)."""

    round_label: str
    table: int
    referee: object
    to: object = None


@dataclass
class BlockOutcome:
    """What a step did: tables given a new referee, tables already theirs, finished tables left as they are,
    own-unit tables handed over or left (:class:`Handed`)."""

    assigned: int = 0
    unchanged: int = 0
    finished: int = 0
    handed: list = field(default_factory=list)

    @property
    def left(self) -> list:
        """The own-unit tables nobody of this step could take: another referee is needed."""
        return [h for h in self.handed if h.to is None]

    @property
    def moved(self) -> list:
        return [h for h in self.handed if h.to is not None]


def _tables(rounds):
    return Match.objects.filter(round__in=list(rounds), table__isnull=False).exclude(status=Match.Status.BYE)


def table_bounds(rounds) -> tuple:
    """``(lowest, highest)`` table number of the rounds (``(None, None)``: no table yet)."""
    found = _tables(rounds).aggregate(low=Min("table"), high=Max("table"))
    return found["low"], found["high"]


def check_range(rounds, first: int, last: int, *, bounds=None) -> None:
    """Refuse a range that is not within the rounds' tables, or that runs backwards (the field at fault).
    ``bounds``: :func:`table_bounds` of the rounds when already read."""
    low, high = bounds or table_bounds(rounds)
    if low is None:
        raise UserError(gettext_noop("This round has no tables yet: make its draw first."), field="round")
    if first > last:
        raise UserError(gettext_noop("The last table (%(last)s) comes before the first (%(first)s)."),
                        field="last", first=first, last=last)
    for name, value in (("first", first), ("last", last)):
        if not low <= value <= high:
            raise UserError(gettext_noop("Table %(table)s is not one of the round's: its tables are %(low)s–%(high)s."),
                            field=name, table=value, low=low, high=high)


def split(first: int, last: int, referees) -> list:
    """``first``..``last`` shared out among ``referees`` in their order: consecutive blocks whose sizes differ
    by one at most (the first blocks the larger). More referees than tables: the last ones get none."""
    referees = list(referees)
    count = last - first + 1
    size, extra = divmod(count, len(referees))
    blocks, start = [], first
    for i, referee in enumerate(referees):
        length = size + (1 if i < extra else 0)
        if length:
            blocks.append(Block(referee, start, start + length - 1))
        start += length
    return blocks


def _check_referees(stage, blocks) -> None:
    wanted = {b.referee.pk for b in blocks}
    allowed = set(referees_of(stage.event).filter(pk__in=wanted).values_list("pk", flat=True))
    strangers = [b.referee for b in blocks if b.referee.pk not in allowed]
    if strangers:
        raise UserError(gettext_noop("Only referees can be assigned to a table: %(names)s is not a referee of "
                                     "this event."), field="referees", names=display_name(strangers[0]))


def _taker(table_units, referee_pk, blocks, index, units):
    """Another referee of the step for a table of ``referee_pk``'s unit: the next block's, then the one after
    (round the list), whose unit does not play there; None when there is none."""
    for step in range(1, len(blocks)):
        other = blocks[(index + step) % len(blocks)].referee
        if other.pk != referee_pk and units.get(other.pk) not in table_units:
            return other
    return None


@transaction.atomic
def assign_blocks(stage: Stage, *, rounds, blocks) -> BlockOutcome:
    """Give each block's tables of ``rounds`` (rounds of ``stage``) to its referee; see the module's text.

    Every range is checked first (:func:`check_range`, UserError naming ``first``/``last``), and every referee
    (a referee of the event, ``referees``); a refusal saves nothing."""
    rounds = list(rounds)
    if not blocks:
        raise UserError(gettext_noop("Choose at least one referee."), field="referees")
    if any(r.stage_id != stage.pk for r in rounds):
        raise UserError(gettext_noop("This round is not one of the stage's: reload the page."), field="round")
    bounds = table_bounds(rounds)
    for block in blocks:
        check_range(rounds, block.first, block.last, bounds=bounds)
    _check_referees(stage, blocks)
    labels = {r.pk: r.label for r in rounds}
    low, high = min(b.first for b in blocks), max(b.last for b in blocks)
    # locked in id order, as every writer of several Match rows locks them (the clock's worker among them)
    rows = list(_tables(rounds).filter(table__range=(low, high)).select_for_update(of=("self",)).order_by("pk")
                .values_list("pk", "round_id", "table", "status", "ns__unit_id", "ew__unit_id"))
    numbers = {r.pk: r.number for r in rounds}
    rows.sort(key=lambda row: (numbers[row[1]], row[2]))
    units = dict(RefereeUnit.objects.filter(event_id=stage.event_id, user_id__in={b.referee.pk for b in blocks})
                 .values_list("user_id", "unit_id"))
    outcome, want = BlockOutcome(), {}
    by_table = {}
    for row in rows:
        by_table.setdefault(row[2], []).append(row)
    for index, block in enumerate(blocks):
        for table in range(block.first, block.last + 1):
            for match_id, round_id, _table, status, ns_unit, ew_unit in by_table.get(table, ()):
                if status in Match.OVER:
                    outcome.finished += 1
                    continue
                referee, playing = block.referee, {ns_unit, ew_unit} - {None}
                if units.get(referee.pk) in playing:
                    taker = _taker(playing, referee.pk, blocks, index, units)
                    outcome.handed.append(Handed(labels[round_id], table, referee, taker))
                    if taker is None:
                        continue
                    referee = taker
                want[match_id] = referee.pk
    _write(want, outcome)
    return outcome


def _write(want: dict, outcome: BlockOutcome) -> None:
    """``want``: {match id: its one referee}. The links already right are kept; the others go; the missing
    are made, in bulk; the matches changed move their ``changed_at`` (the lists' ``changed_since``)."""
    through = Match.referees.through
    have = {}
    for link_id, match_id, user_id in through.objects.filter(match_id__in=list(want)).values_list(
            "id", "match_id", "user_id"):
        have.setdefault(match_id, {})[user_id] = link_id
    stale = [link for match_id, links in have.items() for user, link in links.items() if user != want[match_id]]
    new = [through(match_id=match_id, user_id=user) for match_id, user in want.items()
           if user not in have.get(match_id, {})]
    changed = {match_id for match_id, user in want.items() if have.get(match_id, {}).keys() != {user}}
    outcome.assigned, outcome.unchanged = len(changed), len(want) - len(changed)
    if stale:
        through.objects.filter(id__in=stale).delete()
    if new:
        through.objects.bulk_create(new)
    if changed:
        Match.objects.filter(pk__in=list(changed)).update()


def runs(tables) -> list:
    """Table numbers as runs: [1, 2, 3, 7, 9, 10] -> ["1–3", "7", "9–10"] (the page joins them)."""
    parts, numbers = [], sorted(set(tables))
    start = prev = None
    for number in [*numbers, None]:
        if number is not None and prev is not None and number == prev + 1:
            prev = number
            continue
        if start is not None:
            parts.append(str(start) if start == prev else f"{start}–{prev}")
        start = prev = number
    return parts


def coverage(rounds) -> list:
    """Who referees which tables of ``rounds``: ``[(round, [(name, [runs])])]``, the referees by their first
    table. One query."""
    links = (Match.referees.through.objects.filter(match__round__in=list(rounds), match__table__isnull=False)
             .exclude(match__status=Match.Status.BYE)
             .values_list("match__round_id", "match__table", "user_id", "user__first_name", "user__last_name",
                          "user__username"))
    per_round: dict = {}
    names = {}
    for round_id, table, user_id, first, last, username in links:
        per_round.setdefault(round_id, {}).setdefault(user_id, []).append(table)
        names[user_id] = full_name(first, last) or username
    return [(rnd, sorted(((names[u], runs(t)) for u, t in per_round[rnd.pk].items()), key=lambda x: _first(x[1])))
            for rnd in rounds if rnd.pk in per_round]


def _first(parts) -> int:
    return int(parts[0].split("–")[0]) if parts else 0


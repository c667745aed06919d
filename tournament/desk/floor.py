"""Floor referees' tables, read only: a referee who covers several tables sees them on one page, and the
chief's desk sees each floor referee's tables, the newest activity first.

    waiting_and_disputes(match_ids) -> {match id: Pending}   what waits at each table for a referee
    referee_tables(event, referee) -> (rounds, [FloorTable])  a referee's tables in the current round(s)
    desk_floor(rnd) -> [FloorReferee]                        the round's floor referees and their tables

Each table: its number, pairs, hands recorded and time left (the hall display's cached data,
:mod:`tournament.clocks.display`, the same as every display reads), its hands waiting for a confirmation
and its open disputes (:func:`waiting_and_disputes`), and its last activity (the newest hand, ruling or
waiting entry). A handful of queries whatever the number of tables.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, Subquery
from django.urls import reverse
from django.utils.translation import gettext as _

from common.names import display_name
from rulings.models import Ruling
from scoring.models import Hand
from tournament.clocks import display
from tournament.competition import rounds as round_states
from tournament.engines import clock as clocks
from tournament.models import ClockEvent, Match, Round
from tournament.selfscore import waiting as selfscore_waiting

FLOOR_AT_LEAST = 2   # a referee with this many tables of a round or more is a floor referee on the desk
_OLDEST = dt.datetime.min.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Pending:
    """What waits at one table for a referee: ``waiting`` hands entered by one side and not yet confirmed by
    the other, ``disputes`` open; ``since``: when the newest of them was entered (None: nothing waits)."""

    waiting: int = 0
    disputes: int = 0
    since: dt.datetime | None = None


def waiting_and_disputes(match_ids) -> dict:
    """``{match id: Pending}`` for every match id given: the hands entered by one side and waiting for the
    other side's confirmation, the open disputes, and when the newest of them was entered (the players' entries,
    ``tournament.selfscore.waiting``). The one place the floor referee's page and the chief's desk read them
    from; one query whatever the number of tables."""
    ids = list(match_ids)
    found = {match_id: Pending() for match_id in ids}
    for entry in selfscore_waiting.open_entries(match_ids=ids):
        was, disputed = found[entry.match_id], entry.state == selfscore_waiting.DISPUTED
        since = entry.entered_at if was.since is None else max(was.since, entry.entered_at)
        found[entry.match_id] = Pending(waiting=was.waiting + (not disputed), disputes=was.disputes + disputed,
                                        since=since)
    return found


@dataclass(frozen=True)
class FloorTable:
    """One table as a floor referee's list shows it."""

    match_id: int
    round_label: str
    table: int | None
    ns: str
    ew: str
    hands: int | None          # hands recorded (None: the table cannot play yet)
    time_left: str             # the table's clock, in words ("" while the round's clock has not started)
    time_up: bool
    state: str                 # the table's state in words (not started, playing, ended)
    waiting: int
    disputes: int
    last_activity: dt.datetime | None
    table_url: str
    console_url: str


@dataclass(frozen=True)
class FloorReferee:
    """A floor referee on the desk: their name and their tables of the round, the newest activity first."""

    referee_id: int
    name: str
    tables: list

    @property
    def waiting(self) -> int:
        return sum(t.waiting for t in self.tables)

    @property
    def disputes(self) -> int:
        return sum(t.disputes for t in self.tables)


def current_rounds(event, match_ids) -> list:
    """The rounds that are on now among those of ``match_ids``: the open rounds (results not published) that
    have begun (their clock started, or a table began), else the first open round still to play."""
    begun = Match.objects.filter(round_id=OuterRef("pk")).filter(
        Q(started_at__isnull=False) | Q(status__in=Match.PLAYED))
    started = ClockEvent.objects.filter(round_id=OuterRef("pk"), kind=ClockEvent.Kind.START)
    open_rounds = list(Round.objects.filter(stage__event=event, results_published_at__isnull=True,
                                            matches__in=list(match_ids)).distinct()
                       .annotate(on=Exists(begun) | Exists(started)).select_related("stage")
                       .order_by("stage__order", "number"))
    on = [r for r in open_rounds if r.on]
    return on or open_rounds[:1]


def _last_activity(match_ids) -> dict:
    """{match id: the time of its newest hand or ruling} (absent: neither yet). One query."""
    newest_hand = Hand.objects.filter(match_id=OuterRef("pk")).order_by("-recorded_at").values("recorded_at")[:1]
    newest_ruling = Ruling.objects.filter(match_id=OuterRef("pk")).order_by("-recorded_at").values("recorded_at")[:1]
    rows = Match.objects.filter(pk__in=list(match_ids)).annotate(
        hand_at=Subquery(newest_hand), ruling_at=Subquery(newest_ruling)).values_list("pk", "hand_at", "ruling_at")
    return {pk: max(t for t in (hand, ruling) if t is not None) for pk, hand, ruling in rows if hand or ruling}


def _rows(rnd, match_ids, activity, pending) -> list:
    """The tables ``match_ids`` of round ``rnd`` from the hall display's data."""
    live = display.live_clock(display.display_data(rnd.pk))
    started = live.get("status") not in (None, clocks.NOT_STARTED, display.CLOSED)
    found = []
    for row in live["tables"]:
        mid = row["match_id"]
        if mid not in match_ids:
            continue
        waits = pending.get(mid, Pending())
        times = [t for t in (activity.get(mid), waits.since) if t is not None]
        remaining = row.get("remaining_seconds")
        found.append(FloorTable(
            match_id=mid, round_label=rnd.label, table=row["table"], ns=row["ns"], ew=row["ew"],
            hands=row["recorded"], time_left=clock_text(remaining) if started and remaining is not None
            and not row["ended"] else "",
            time_up=bool(started and not row["ended"] and (live.get("time_up") or (remaining or 0) <= 0)),
            state=_(round_states.TABLE_STATUS_LABELS[row["state"]]), waiting=waits.waiting, disputes=waits.disputes,
            last_activity=max(times) if times else None,
            table_url=reverse("scoring-table", args=[mid]), console_url=reverse("ruling_console", args=[mid])))
    return found


def clock_text(seconds: float) -> str:
    """Time left as a clock shows it, the same in every language: "1:05:09", "29:05" (whole seconds, up)."""
    whole = int(-(-seconds // 1)) if seconds > 0 else 0
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def newest_first(tables) -> list:
    """The tables by their last activity, the newest first; those without any after, by table number."""
    ordered = sorted(tables, key=lambda t: (t.table is None, t.table or 0))
    return sorted(ordered, key=lambda t: t.last_activity or _OLDEST, reverse=True)


def referee_tables(event, referee) -> tuple:
    """``(rounds, tables)``: ``referee``'s tables in the event's current round(s) (:func:`current_rounds`),
    the newest activity first."""
    mine = set(Match.objects.filter(round__stage__event=event, referees=referee).exclude(
        status=Match.Status.BYE).values_list("pk", flat=True))
    if not mine:
        return [], []
    now = current_rounds(event, mine)
    pending = waiting_and_disputes(sorted(mine))
    activity = _last_activity(mine)
    tables = [t for rnd in now for t in _rows(rnd, mine, activity, pending)]
    return now, newest_first(tables)


def desk_floor(rnd) -> list:
    """The floor referees of round ``rnd`` (those with :data:`FLOOR_AT_LEAST` tables or more), each with their
    tables, the newest activity first; the referees by their newest activity too."""
    links = Match.referees.through.objects.filter(match__round=rnd).exclude(match__status=Match.Status.BYE)
    per_referee: dict = {}
    for match_id, user_id in links.values_list("match_id", "user_id"):
        per_referee.setdefault(user_id, set()).add(match_id)
    per_referee = {u: ids for u, ids in per_referee.items() if len(ids) >= FLOOR_AT_LEAST}
    if not per_referee:
        return []
    covered = set().union(*per_referee.values())
    pending = waiting_and_disputes(sorted(covered))
    tables = {t.match_id: t for t in _rows(rnd, covered, _last_activity(covered), pending)}
    people = get_user_model().objects.in_bulk(list(per_referee))
    floor = [FloorReferee(user_id, display_name(people[user_id]),
                          newest_first([tables[m] for m in ids if m in tables]))
             for user_id, ids in per_referee.items()]
    floor.sort(key=lambda f: f.name)
    return sorted(floor, key=lambda f: max((t.last_activity or _OLDEST for t in f.tables), default=_OLDEST),
                  reverse=True)

"""What the self-scoring tests share: a table of an event where the players record, its two sides' codes."""
from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import dataclass

from scoring.profile_store import latest_profile
from tournament.models import Event, Match, Pair, Player, Round, Stage, Unit
from tournament.selfscore import codes

_counter = itertools.count(1)
ADDRESS = "10.0.0.1"
FIRST = {"trump": "S", "defender_points": 40, "declarer": "N"}   # the first hand names its declarer
PLAYED = {"trump": "H", "defender_points": 60}


def make_event(recorders=Event.Recorders.PLAYERS, profile="shenzhen-community"):
    n = next(_counter)
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug=f"self{n}", name=f"自助{n}", start_date=day, end_date=day,
                                profile=latest_profile(profile), published=True, hand_recorders=recorders)


def make_round(event, number=1):
    stage = event.stages.first() or Stage.objects.create(event=event, order=1, kind="round_robin", name="小组赛")
    return Round.objects.create(stage=stage, number=number)


def make_match(rnd, table=1):
    event = rnd.stage.event
    pairs = []
    for label in ("甲", "乙"):
        n = next(_counter)
        unit = Unit.objects.create(event=event, name=f"单位{label}{n}")
        p1 = Player.objects.create(event=event, unit=unit, name=f"{label}{n}a", gender="M")
        p2 = Player.objects.create(event=event, unit=unit, name=f"{label}{n}b", gender="F")
        pairs.append(Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=f"{label}队{n}"))
    return Match.objects.create(round=rnd, table=table, ns=pairs[0], ew=pairs[1], profile=event.profile)


@dataclass
class Table:
    match: Match
    ns: str    # the north–south side's code
    ew: str
    chief: object
    referee: object

    def code(self, side):
        return self.ns if side == "NS" else self.ew


def make_table(make_user, *, recorders=Event.Recorders.PLAYERS, rnd=None, table=1, chief=None,
               profile="shenzhen-community"):
    from tournament.models import EventRole

    rnd = rnd or make_round(make_event(recorders, profile))
    event = rnd.stage.event
    match = make_match(rnd, table)
    if chief is None:
        chief = make_user()
        EventRole.objects.create(event=event, user=chief, role=EventRole.Role.CHIEF_REFEREE)
    referee = make_user()
    EventRole.objects.get_or_create(event=event, user=referee, role=EventRole.Role.TABLE_REFEREE)
    match.referees.add(referee)
    return Table(match, codes.issue_code(match, "NS", chief), codes.issue_code(match, "EW", chief), chief, referee)

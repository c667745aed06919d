"""Shared helpers for the clock tests (no tests here): a round with tables, and playing hands the way
the scoring layer does (hands_left before; the result service's verdict after)."""
import datetime as dt
import itertools

import pytest

from scoring.profile_store import latest_profile
from scoring.services import record_hand
from tournament.clocks import services as clock_services
from tournament.competition import results
from tournament.models import Event, Match, Pair, Player, Round, Stage, Unit
from tournament.records.adjustments import match_state

_serial = itertools.count(1)


def make_round(profile_slug="shenzhen-community", tables=2, published=True):
    """A published event under ``profile_slug`` with one round of ``tables`` playing tables."""
    n = next(_serial)
    profile = latest_profile(profile_slug)
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug=f"clock-{n}", name=f"计时测试{n}", start_date=day, end_date=day,
                                 profile=profile, published=published)
    unit = Unit.objects.create(event=event, name="测试社区")
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="小组赛")
    rnd = Round.objects.create(stage=stage, number=1, name="第一轮")
    for table in range(1, tables + 1):
        pairs = []
        for side in ("甲", "乙"):
            p1 = Player.objects.create(event=event, unit=unit, name=f"{table}{side}一", gender="M")
            p2 = Player.objects.create(event=event, unit=unit, name=f"{table}{side}二", gender="F")
            pairs.append(Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2,
                                             name=f"{table}桌{side}队"))
        Match.objects.create(round=rnd, table=table, ns=pairs[0], ew=pairs[1], profile=profile,
                             status=Match.Status.PLAYING)
    return Round.objects.select_related("stage__event__profile").get(pk=rnd.pk)


def tables_of(rnd):
    return list(Match.objects.filter(round=rnd).select_related("ns", "ew", "round").order_by("table"))


def play(match, user, defender_points=80):
    """Record the next hand as the scoring layer must: refuse at 0 hands left, check the end after."""
    match.refresh_from_db()
    if clock_services.hands_left(match) == 0:
        raise ValueError("hand: 本桌限定副数已打完（no hands left）")
    number = match_state(match).hand_count + 1
    record_hand(match, user, number=number, trump="S", defender_points=defender_points,
                declarer="N" if number == 1 else None)
    match = Match.objects.select_related("hand_allowance").get(pk=match.pk)
    return results.decide(match_state(match), None, getattr(match, "hand_allowance", None))


@pytest.fixture
def chief(make_user):
    return make_user("chief_referee")


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()

"""Shared builders for the competition tests (no tests here): events, pairs and results."""
import datetime as dt
import itertools

import pytest

from scoring.profile_store import latest_profile
from tournament.competition import results
from tournament.models import Event, Match, Pair, Player, Unit

_names = itertools.count(1)


def make_event(n_pairs=16, n_units=4, *, profile="shenzhen-community", fmt=Event.Format.GROUPS_ELIMINATION,
               seeds=0, published=True, slug=None):
    """An event with ``n_pairs`` pairs spread round-robin over ``n_units`` units; the first ``seeds`` seeded."""
    number = next(_names)
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug=slug or f"ev{number}", name=f"测试赛事{number}", start_date=day, end_date=day,
                                 profile=latest_profile(profile), format=fmt, published=published)
    units = [Unit.objects.create(event=event, name=f"单位{u + 1}") for u in range(n_units)]
    for i in range(n_pairs):
        unit = units[i % n_units]
        p1 = Player.objects.create(event=event, unit=unit, name=f"甲{i}", gender="M")
        p2 = Player.objects.create(event=event, unit=unit, name=f"乙{i}", gender="F")
        Pair.objects.create(event=event, unit=unit, player1=p1, player2=p2, name=f"第{i + 1:02d}对",
                            seed=i + 1 if i < seeds else None)
    return event


def finish(match, winner="ns", win_level="A", lose_level="5"):
    """A result row as the result service leaves it (status, winner, final levels), then the
    competition moved on as :func:`tournament.competition.results.settle` does."""
    match.refresh_from_db()
    ns_wins = winner == "ns" or winner == match.ns_id
    match.status = Match.Status.FINISHED
    match.winner_id = match.ns_id if ns_wins else match.ew_id
    match.ns_level, match.ew_level = (win_level, lose_level) if ns_wins else (lose_level, win_level)
    match.save()
    results.move_on(match)
    return match


def play_stage(stage, pick=None):
    """Finish every playable match of the stage (repeating as a bracket fills); ``pick(match)`` -> winner id."""
    pick = pick or (lambda m: min(m.ns_id, m.ew_id))
    while True:
        ready = list(Match.objects.filter(round__stage=stage, status=Match.Status.SCHEDULED)
                     .order_by("round__number", "table"))
        if not ready:
            return
        for m in ready:
            finish(m, winner=pick(m))


@pytest.fixture
def event16(db):
    return make_event(16, 4, seeds=4)

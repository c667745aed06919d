"""A real Celery worker fires a round's announcement at its ETA (real time, a few seconds ahead)."""
import datetime as dt
import time

import pytest

from infra import clock
from tests.conftest import wait_for
from tests.tournament.test_clock_fixtures import _fresh_cache, make_round, tables_of  # noqa: F401
from tournament.clocks import services as cs
from tournament.models import ClockEvent, ClockFiring, HandAllowance


@pytest.mark.worker
def test_worker_fires_the_announcement_at_its_eta(celery_worker_process, make_user):
    chief = make_user("chief_referee")
    rnd = make_round(tables=2)
    cs.set_clock_settings(rnd, match_minutes=2, announce_minutes_before_end=1)
    # A clock started 56 s ago: the announcement (60 s after the start) is due in about 4 s.
    started = clock.now() - dt.timedelta(seconds=56)
    ClockEvent.objects.create(round=rnd, kind="start", at=started, created_by=chief)
    eta = started + dt.timedelta(seconds=60)
    scheduled = cs.schedule_round_tasks(rnd.pk)      # no atomic block around us: sent at once
    assert dt.datetime.fromisoformat(scheduled["announce"]["eta"]) == eta
    time.sleep(1.0)
    assert not ClockFiring.objects.filter(round=rnd).exists(), "fired before its ETA"
    firing = wait_for(lambda: ClockFiring.objects.filter(round=rnd, kind="announce").first(), timeout=45)
    assert firing is not None, "the worker did not fire the announcement"
    assert firing.via == "task:announce"
    assert eta <= firing.fired_at < eta + dt.timedelta(seconds=10)
    assert HandAllowance.objects.filter(match__in=tables_of(rnd)).count() == 2

"""Fixtures for the rulings layer: a published event, a round and a table with its referee."""
import datetime as dt
import itertools

import pytest

from tests.tournament.selfscore_support import make_match as make_match_at

_counter = itertools.count(1)


@pytest.fixture
def make_match(db):
    """Create a match under a profile slug (a fresh event, stage and round each time unless given)."""
    from scoring.profile_store import latest_profile
    from tournament.models import Event, Round, Stage

    def make(profile="shenzhen-community", *, round=None, table=1, published=True):
        if round is None:
            n = next(_counter)
            event = Event.objects.create(slug=f"ev{n}", name=f"赛事{n}", start_date=dt.date(2026, 12, 5),
                                         end_date=dt.date(2026, 12, 5), profile=latest_profile(profile),
                                         published=published)
            stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="小组赛")
            round = Round.objects.create(stage=stage, number=1)
        return make_match_at(round, table)

    return make


@pytest.fixture
def table(make_match, make_user):
    """A shenzhen-community table with one assigned referee, plus staff of every role."""
    match = make_match()
    users = {
        "organiser": make_user("organiser"),
        "referee": make_user("table_referee"),
        "other_referee": make_user("table_referee"),
        "chief": make_user("chief_referee"),
        "chief2": make_user("chief_referee"),
        "arbiter": make_user("arbitration"),
        "arbiter2": make_user("arbitration"),
    }
    match.referees.add(users["referee"])
    return match, users


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    """Password hashing is not under test here; a fast hasher keeps the role fixtures cheap."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

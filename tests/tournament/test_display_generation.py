"""Issue 43 items 15 and 16: a change of the round itself (its clock, its closure) reaches every reader of the
round's display data at once: no copy built before it is served again, neither the stale copy served while
another poll rebuilds nor a copy a rebuild stored after reading the database before the change (the desk's
clock saying "本轮进行中" a poll after the round closed, both labels at once after a reopening)."""
from django.core.cache import cache

from tests.tournament.test_clock_fixtures import chief, make_round  # noqa: F401  (fixtures)
from tournament.clocks import display
from tournament.clocks import services as clock_services
from tournament.competition import display_cache


def start(rnd, user, commit):
    with commit(execute=True):
        clock_services.start_clock(rnd, user)


def test_the_stale_copy_is_not_served_after_the_round_changed(db, chief, django_capture_on_commit_callbacks):  # noqa: F811
    rnd = make_round(tables=2)
    assert display.display_data(rnd.pk)["clock_started"] is False
    key = display_cache.display_key(rnd.pk)
    cache.add(f"{key}:rebuilding", 1, 10)        # another poll is rebuilding the round's data right now
    start(rnd, chief, django_capture_on_commit_callbacks)
    assert display.display_data(rnd.pk)["clock_started"] is True
    assert cache.get(f"{key}:rebuilding") == 1  # the other poll's lock is its own


def test_a_copy_built_before_the_change_and_stored_after_it_is_not_served(db, chief,  # noqa: F811
                                                                           django_capture_on_commit_callbacks):
    rnd = make_round(tables=2)
    before = display.display_data(rnd.pk)        # a rebuild read the database ...
    start(rnd, chief, django_capture_on_commit_callbacks)
    cache.set(display_cache.display_key(rnd.pk), before, display.DISPLAY_CACHE_SECONDS)   # ... and stored late
    assert display.display_data(rnd.pk)["clock_started"] is True


def test_a_table_change_keeps_serving_the_stale_copy_while_another_rebuilds(db, chief,  # noqa: F811
                                                                             django_capture_on_commit_callbacks):
    rnd = make_round(tables=2)
    start(rnd, chief, django_capture_on_commit_callbacks)
    first = display.display_data(rnd.pk)
    display_cache.tables_changed(rnd.pk)         # a hand: only the tables moved
    cache.add(f"{display_cache.display_key(rnd.pk)}:rebuilding", 1, 10)
    assert display.display_data(rnd.pk) == first   # no stampede: the copy of the same generation is served

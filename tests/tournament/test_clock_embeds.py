"""The round clock embedded in the table page, the referee console and the public schedule, and the
demo's running clock. Browser tests run in headless Chromium on a 360-px phone."""
import datetime as dt
import re

import pytest

from demo.clock import open_round, seed_clock
from infra import clock
from tests.conftest import login
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, tables_of  # noqa: F401
from tournament.clocks import display as display_
from tournament.clocks import services as cs
from tournament.competition.rounds import current_clock_round
from tournament.models import ClockEvent, EventClockSettings, Match

COUNTDOWN = re.compile(r"(\d+小时)?\d+分\d\d秒")


def announced_round(chief):
    """A shenzhen-community round whose clock started 60 min 5 s before the frozen moment returned,
    with the announcement fired through the service (the hand in play does not count, then 3 more)."""
    rnd = make_round(tables=2)
    cs.start_clock(rnd, chief)
    later = clock.now() + dt.timedelta(minutes=60, seconds=5)
    with clock.frozen(later):
        assert cs.fire_due(rnd.pk)[0] == "announce"
    return rnd, later


def assert_clock_shows_hands_left(page, hands):
    """The embedded clock counts down, shows the banner, and this table's hands left; no sideways scroll."""
    page.wait_for_function("/秒/.test(document.querySelector('[data-clock-time]').textContent)")
    assert COUNTDOWN.fullmatch(page.locator("[data-clock-time]").inner_text())
    assert page.locator("[data-clock-time]").inner_text().startswith("29分")
    page.locator("[data-clock-banner]").wait_for(state="visible")
    page.wait_for_function(f"document.querySelector('[data-clock-hands]').textContent.includes('剩余{hands}副')")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


@pytest.mark.browser
def test_table_page_shows_the_countdown_and_hands_left(transactional_db, live_server, phone, make_user):
    rnd, later = announced_round(make_user("chief_referee"))
    match = tables_of(rnd)[0]
    with clock.frozen(later):
        phone.goto(f"{live_server.url}/tables/{match.pk}/")
        assert_clock_shows_hands_left(phone, 4)     # hand 1 in play does not count: hands 2-4 after it


@pytest.mark.browser
def test_console_shows_the_countdown_and_hands_left(transactional_db, live_server, phone, make_user):
    rnd, later = announced_round(make_user("chief_referee"))
    match = tables_of(rnd)[1]
    referee = make_user("table_referee")
    match.referees.add(referee)
    with clock.frozen(later):
        login(phone, live_server, referee)
        phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
        assert_clock_shows_hands_left(phone, 4)
        assert phone.locator(f"[data-round-clock][data-match-id='{match.pk}']").count() == 1


@pytest.mark.browser
def test_table_page_before_the_start_shows_the_full_length(transactional_db, live_server, phone):
    match = tables_of(make_round(tables=1))[0]
    # before the start no table has begun (a table "playing" would put its round in progress: issue 27 item 17)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.SCHEDULED)
    phone.goto(f"{live_server.url}/tables/{match.pk}/")
    phone.wait_for_function("document.querySelector('[data-clock-time]').textContent.includes('秒')")
    assert phone.locator("[data-clock-time]").inner_text() == "1小时30分00秒"
    assert phone.locator("[data-clock-status]").inner_text() == "未开始"
    assert phone.locator("[data-clock-hands]").inner_text() == ""
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


# --- the public schedule: the round whose clock runs --------------------------------------------

@pytest.mark.django_db
def test_schedule_shows_the_running_round_clock_only_while_it_runs(client, chief):
    rnd = make_round(tables=1)
    url = f"/events/{rnd.stage.event.slug}/schedule/"
    assert "data-round-clock" not in client.get(url).content.decode()
    cs.start_clock(rnd, chief)
    html = client.get(url).content.decode()
    assert f'data-url="/api/rounds/{rnd.pk}/clock/"' in html
    assert f"/rounds/{rnd.pk}/display/" in html
    cs.pause_clock(rnd, chief)
    assert current_clock_round(rnd.stage.event) == rnd           # paused is still the current round
    with clock.frozen(clock.now() + dt.timedelta(hours=3)):
        cs.resume_clock(rnd, chief)
        with clock.frozen(clock.now() + dt.timedelta(hours=2)):
            assert "end" in cs.fire_due(rnd.pk)
    assert current_clock_round(rnd.stage.event) is None
    assert "data-round-clock" not in client.get(url).content.decode()


@pytest.mark.django_db
def test_current_clock_round_is_the_latest_started_of_the_event(chief):
    first = make_round(tables=1)
    second = first.stage.rounds.create(number=2, name="第二轮")
    EventClockSettings.objects.create(event=first.stage.event, parallel_rounds=True)  # two halls
    cs.start_clock(first, chief)
    with clock.frozen(clock.now() + dt.timedelta(minutes=1)):
        cs.start_clock(second, chief)
    assert current_clock_round(first.stage.event) == second
    assert current_clock_round(make_round(tables=1).stage.event) is None


# --- the demo --------------------------------------------------------------------------------

@pytest.mark.django_db
def test_seed_clock_starts_the_open_round_once(chief):
    rnd = make_round(tables=2)
    event = rnd.stage.event
    Match.objects.filter(round=rnd, table=1).update(status=Match.Status.FINISHED)
    assert seed_clock(event) == rnd
    assert seed_clock(event) is None
    events = ClockEvent.objects.filter(round=rnd)
    assert [(e.kind, e.created_by.username) for e in events] == [("start", chief.username)]


@pytest.mark.django_db
def test_seed_clock_leaves_a_round_without_open_tables_alone(chief):
    rnd = make_round(tables=1)
    Match.objects.filter(round=rnd).update(status=Match.Status.FINISHED)
    assert open_round(rnd.stage.event) is None
    assert seed_clock(rnd.stage.event) is None
    assert not ClockEvent.objects.exists()


@pytest.mark.django_db
def test_demo_clock_runs_on_the_knockout_round_in_play():
    from demo.event import seed_demo

    event = seed_demo()[0]
    seed_clock(event)                          # a no-op once seed_demo() calls it itself
    rnd = current_clock_round(event)
    assert rnd is not None and rnd.stage.kind == "elimination" and rnd.number == 2
    starts = ClockEvent.objects.filter(round__stage__event=event)
    assert [(e.kind, e.created_by.username) for e in starts] == [("start", "chief")]
    live = display_.live_clock(display_.build_display_data(rnd.pk))
    assert live["status"] == "running" and live["remaining_seconds"] > 89 * 60
    assert seed_clock(event) is None and starts.count() == 1

"""The hall display at 1920×1080: every table with its levels and state, a finished table kept with its
winner, and the round's results after time-up."""
import datetime as dt
import pathlib

import pytest
from playwright.sync_api import expect

from infra import clock
from rulings import services as rulings_services
from tests.conftest import login
from tests.tournament.test_clock_fixtures import make_round, play, tables_of
from tournament.clocks import services as cs

SHOTS = pathlib.Path("/tmp/desk-shots")


@pytest.mark.browser
def test_the_hall_shows_levels_finished_tables_and_results(transactional_db, live_server, page, make_user):
    SHOTS.mkdir(exist_ok=True)
    chief = make_user("chief_referee")
    rnd = make_round(tables=3)
    t1, t2, t3 = tables_of(rnd)
    cs.start_clock(rnd, chief)
    play(t1, chief, defender_points=20)                                  # NS up three levels
    rulings_services.record_ruling(t2, chief, "late", "EW", minutes=40)  # a chief's forfeit: over at once
    page.set_viewport_size({"width": 1920, "height": 1080})
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/events/{rnd.stage.event.slug}/rounds/{rnd.pk}/display/")
    page.wait_for_selector("[data-clock-tables] li")
    assert page.locator("[data-clock-tables] li").count() == 3
    first = page.locator(f'[data-clock-tables] li[data-match-id="{t1.pk}"]')
    assert "5 : 2" in first.inner_text()  # shenzhen: 20 points, up three
    finished = page.locator(f'[data-clock-tables] li.ended[data-match-id="{t2.pk}"]')
    assert "胜方" in finished.inner_text() and str(t2.ns) in finished.inner_text()
    assert page.inner_text("[data-clock-tables-title]") == "各桌"
    page.screenshot(path=str(SHOTS / "hall-1920.png"))

    with clock.frozen(clock.now() + dt.timedelta(minutes=95)):
        cs.fire_due(rnd.pk)
        page.wait_for_function("document.querySelector('[data-clock-tables-title]').textContent === '本轮结果'")
        expect(page.locator("[data-clock-tables] li")).to_have_count(3)
        page.screenshot(path=str(SHOTS / "hall-results-1920.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920

"""A table decided by the chief in a closed round, on the referee's phone (390×844): the clock box under the
table's title said "剩余0副" in red beside "本轮已结束，成绩已公布". A finished table shows no hands left."""
import pytest
from playwright.sync_api import expect

from tests.conftest import login
from tournament.competition import results, rounds


@pytest.mark.browser
def test_a_finished_table_shows_no_hands_left(transactional_db, live_server, page, make_user, make_match):
    match = make_match("shenzhen-community")
    referee, chief = make_user("table_referee"), make_user("chief_referee")
    match.referees.add(referee)
    results.decide_match(match, chief, winner="NS", kind="decided", reason="时间到")
    rounds.close_round(match.round, chief)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, referee)
    with page.expect_response(lambda r: f"/api/rounds/{match.round_id}/clock/" in r.url):
        page.goto(f"{live_server.url}/tables/{match.pk}/")
    page.wait_for_selector("[data-clock-status]:has-text('本轮已结束')")
    expect(page.locator("[data-clock-hands]")).to_have_text("")   # rendered with the status, no pause needed

"""A finished match on a 390×844 phone: the table page and the console say who won and how, a table referee
gets no hand form, a chief referee gets the correction form behind a warning; a closed round says so."""
import pathlib

import pytest

from rulings import services
from rulings.models import Appeal
from scoring.services import record_hand
from tests.conftest import login
from tournament.competition import rounds
from tournament.models import Match

SHOTS = pathlib.Path("/tmp/desk-shots")


@pytest.mark.browser
def test_a_finished_match_on_the_phone(transactional_db, live_server, page, make_user, make_match):
    SHOTS.mkdir(exist_ok=True)
    match = make_match("two-deck-standard")
    referee, chief = make_user("table_referee"), make_user("chief_referee", first_name="芳", last_name="李")
    match.referees.add(referee)
    record_hand(match, referee, number=1, trump="S", defender_points=80, declarer="N")
    services.record_ruling(match, chief, "late", "EW", minutes=40)  # a chief's forfeit: decided at once
    match.refresh_from_db()
    assert match.status == Match.Status.FORFEIT
    page.set_viewport_size({"width": 390, "height": 844})

    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    banner = page.locator("#match-over")
    assert "本场比赛已结束" in banner.inner_text() and str(match.ns) in banner.inner_text()
    assert "判负（依判罚）" in banner.inner_text()
    assert page.locator("#hand-form").count() == 0
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / "table-finished-referee.png"), full_page=True)
    page.goto(f"{live_server.url}/tables/{match.pk}/console/")
    assert "本场比赛已结束" in page.locator("#match-over").inner_text()
    page.wait_for_selector("#ruling-list li")
    assert "自动生效" in page.inner_text("#ruling-list") and "待裁判长核准" not in page.inner_text("#ruling-list")  # 000 第十七条（一）: automatic
    page.screenshot(path=str(SHOTS / "console-finished.png"), full_page=True)
    page.click("#appeal-box summary")                 # the table referee files an appeal for a side
    page.check("#appeal-form input[name=side][value=EW]")
    page.fill("#appeal-form input[name=grounds]", "裁判长宣布的开始时间有误")
    page.click("#appeal-form button[type=submit]")
    page.wait_for_selector("#appeal-status.saved")
    appeal = Appeal.objects.get()
    assert (appeal.side, appeal.filed_by_id, appeal.grounds) == ("EW", referee.pk, "裁判长宣布的开始时间有误")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.context.clear_cookies()
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    assert not page.is_visible("#hand-form")
    page.click("#correction summary")
    assert page.is_visible("#hand-form") and "更正可能改变胜方" in page.inner_text("#correction")
    page.screenshot(path=str(SHOTS / "table-finished-chief.png"), full_page=True)

    rounds.close_round(match.round, chief)
    page.reload()
    assert "本轮已结束" in page.inner_text("#round-closed") and "申诉截止" in page.inner_text("#round-closed")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

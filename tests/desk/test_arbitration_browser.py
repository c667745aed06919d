"""The arbitration page in headless Chromium at 1366×768: the arbitration group decides the second instance
of a two-deck-standard appeal (chief referee → arbitration group, the project's default)."""
import pathlib

import pytest

from rulings import appeals as appeals_
from rulings import services
from tests.conftest import login
from tournament.records import ledger as ledger_

SHOTS = pathlib.Path("/tmp/desk-shots")


@pytest.mark.browser
def test_the_arbitration_group_decides_the_second_instance(transactional_db, live_server, page, make_user,
                                                           make_match):
    SHOTS.mkdir(exist_ok=True)
    match = make_match("two-deck-standard")
    referee, chief, arbiter = make_user("table_referee"), make_user("chief_referee"), make_user("arbitration")
    match.referees.add(referee)
    ruling = services.record_ruling(match, referee, "exposed_card", "NS")
    appeal = appeals_.file_appeal(ruling, referee, "NS", "牌是被碰落的")
    appeals_.decide_appeal(appeal, chief, instance=1, outcome="upheld", reason="确属暴露")
    page.set_viewport_size({"width": 1366, "height": 768})
    login(page, live_server, arbiter)
    page.goto(f"{live_server.url}/manage/{match.round.stage.event.slug}/arbitration/")
    card = page.locator(f'article[data-appeal="{appeal.pk}"]')
    text = card.inner_text()
    assert "第1审：维持" in text and "等待仲裁组裁决" in text and "牌是被碰落的" in text
    assert "由主办方确定" in page.inner_text("main") or "主办方" in page.inner_text("main")
    page.screenshot(path=str(SHOTS / "arbitration-1366.png"), full_page=True)
    card.locator("input[name=reason]").fill("非故意暴露")
    card.locator("button.reverse").click()
    page.wait_for_selector("h2:has-text('已裁决') ~ article:has-text('撤销')")
    assert ledger_.match_entries(match)[0].state == ledger_.REVERSED
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(SHOTS / "arbitration-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

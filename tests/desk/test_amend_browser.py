"""改判 (amended) in headless Chromium at 1366×768 and on a 390×844 phone: the chief referee amends a ruling on
the desk (the new sanction's fields open under 改判), then the organising committee (shenzhen's second
instance) amends it again on the arbitration page. Screenshots in /tmp/desk-shots/."""
import pathlib

import pytest

from rulings import appeals as appeals_
from rulings import services
from rulings.models import AppealDecision
from tests.conftest import login
from tests.tournament.test_clock_fixtures import _fresh_cache  # noqa: F401
from tournament.records import adjustments as adjustments_
from tournament.records import ledger as ledger_

SHOTS = pathlib.Path("/tmp/desk-shots")


@pytest.mark.browser
def test_amended_on_the_desk_then_on_the_arbitration_page(transactional_db, live_server, page, make_user,
                                                          make_match):
    SHOTS.mkdir(exist_ok=True)
    match = make_match("shenzhen-community")
    referee, chief, organiser = make_user("table_referee"), make_user("chief_referee"), make_user("organiser")
    match.referees.add(referee)
    ruling = services.record_ruling(match, referee, "failed_throw", "NS", cards=3, role="declarers")
    appeal = appeals_.file_appeal(ruling, referee, "NS", "只甩错一张")
    event = match.round.stage.event

    page.set_viewport_size({"width": 1366, "height": 768})
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/manage/{event.slug}/rounds/{match.round_id}/desk/")
    item = page.locator(f'#appeals li[data-appeal="{appeal.pk}"]')
    item.wait_for()
    assert item.locator("[data-amend]").is_hidden()
    item.locator("button.amend-open").click()
    fields = item.locator("[data-amend]")
    assert fields.is_visible()
    assert fields.locator("select[name=code]").input_value() == "failed_throw"   # the appealed offence
    fields.locator("select[name=role]").select_option("declarers")
    fields.locator("input[name=cards]").fill("1")
    item.locator("input[name=reason]").fill("只有一张")
    page.screenshot(path=str(SHOTS / "desk-amend-1366.png"), full_page=True)
    fields.locator("button.amend-go").click()
    page.wait_for_selector("#appeals-empty:not([hidden])")
    decision = AppealDecision.objects.get()
    assert decision.outcome == "amended" and decision.replacement.cards == 1
    assert adjustments_.hand_adjustments(match)[1]["penalty_points"] == 10

    page.context.clear_cookies()
    login(page, live_server, organiser)                                  # the second instance
    page.goto(f"{live_server.url}/manage/{event.slug}/arbitration/")
    card = page.locator(f'article[data-appeal="{appeal.pk}"]')
    assert "改判" in card.inner_text()
    card.locator("button.amend-open").click()
    card.locator("[data-amend] select[name=role]").select_option("declarers")
    card.locator("[data-amend] input[name=cards]").fill("2")
    card.locator("input[name=reason]").fill("复核为两张")
    page.screenshot(path=str(SHOTS / "arbitration-amend-1366.png"), full_page=True)
    card.locator("button.amend-go").click()
    page.wait_for_selector("h2:has-text('已裁决') ~ article:has-text('改判')")
    states = sorted(e.state for e in ledger_.match_entries(match))
    assert states == sorted([ledger_.AMENDED, ledger_.LAPSED, ledger_.IN_FORCE])
    assert adjustments_.hand_adjustments(match)[1]["penalty_points"] == 20
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/events/{event.slug}/penalties/")
    text = page.inner_text("main")
    assert "申诉改判" in text and "改判被撤销" in text and "改判后的判罚" in text
    page.screenshot(path=str(SHOTS / "penalties-amended-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

"""The chief's desk in headless Chromium at 1366×768 (and on a 390×844 phone): tables with their state
and alerts, a pending forfeit approved in place, a round that will not close while tables have no result,
a chief's result for a table that could not play, then closing with the appeal deadline counting down."""
import pathlib
import zoneinfo

import pytest
from django.conf import settings
from playwright.sync_api import expect

from rulings import services
from rulings.models import AppealDecision, Approval, Ruling
from tests.conftest import login
from tests.tournament.test_clock_fixtures import make_round
from tournament.models import Match

SHOTS = "/tmp/desk-shots"


@pytest.fixture
def desk_round(transactional_db, make_user):
    rnd = make_round(tables=3)
    referee = make_user("table_referee", first_name="明", last_name="王")
    chief = make_user("chief_referee", first_name="芳", last_name="李")
    tables = list(Match.objects.filter(round=rnd).order_by("table"))
    for match in tables[:2]:
        match.referees.add(referee)
    services.record_ruling(tables[1], referee, "cheating", "EW")  # a forfeit proposed: waits
    return rnd, tables, referee, chief


@pytest.mark.browser
def test_the_desk_approves_decides_and_closes(desk_round, live_server, page):
    pathlib.Path(SHOTS).mkdir(exist_ok=True)
    rnd, tables, referee, chief = desk_round
    page.set_viewport_size({"width": 1366, "height": 768})
    page.clock.install()   # the page's timers: paused below to show what follows the close without a poll
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/desk/")
    page.wait_for_selector("#desk-tables tbody tr")
    assert page.locator("#desk-tables tbody tr").count() == 3
    third = page.locator(f'#desk-tables tr[data-match-id="{tables[2].pk}"]')
    assert "没有裁判员" in third.inner_text()
    approval = page.locator('#approvals li[data-ruling]')
    assert "王明" in approval.inner_text() and "有意犯规" in approval.inner_text()
    page.screenshot(path=f"{SHOTS}/desk-1366.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366

    approval.locator("button.approve").click()   # a match loss: asked first, naming the loser (issue #43)
    dialog = page.locator("dialog.confirm-dialog")
    dialog.locator("li:has-text('核准后')").wait_for()
    assert "东西方" in dialog.inner_text() and not Approval.objects.exists()
    dialog.locator("button.confirm-yes").click()
    page.wait_for_selector("#approvals-empty:not([hidden])")
    assert Approval.objects.get().approved
    page.wait_for_selector(f'#desk-tables tr[data-match-id="{tables[1].pk}"] .badge.s-finished')

    page.click("#close-round")
    page.click("#close-yes")
    page.wait_for_selector("#round-error:has-text('1、3')")
    refusal = page.inner_text("#round-error")   # the server's answer as it is, not "not confirmed, try again"
    assert refusal == "本轮还不能结束：第1、3桌尚无结果。", refusal
    with page.expect_response(lambda r: "/desk/state/" in r.url and r.ok):   # the desk's next poll ...
        page.clock.run_for(6000)
    page.wait_for_function("!document.getElementById('desk').classList.contains('offline')")
    page.evaluate("new Promise(requestAnimationFrame)")
    assert page.inner_text("#round-error") == refusal   # ... leaves the refusal: the round is still open

    page.select_option("#result-form select[name=match]", str(tables[0].pk))
    page.select_option("#result-form select[name=winner]", "NS")
    page.fill("#result-form input[name=reason]", "东西方未到场")
    page.click("#result-form button[type=submit]")
    page.wait_for_selector(f'#desk-tables tr[data-match-id="{tables[0].pk}"] .badge.s-finished')
    page.select_option("#result-form select[name=match]", str(tables[2].pk))
    page.select_option("#result-form select[name=kind]", "walkover")
    page.fill("#result-form input[name=reason]", "南北方弃权")
    page.select_option("#result-form select[name=winner]", "EW")
    page.click("#result-form button[type=submit]")
    page.wait_for_selector(f'#desk-tables tr[data-match-id="{tables[2].pk}"] .badge.s-finished')

    # the desk's clock follows the close at once, not at its next poll (every 5 s: "各桌均已结束：等待结束本轮"
    # for seconds after closing). The page's timers stop here, so no poll runs: what changes comes of the close
    # (issue 43: a wait of 3 s for it timed out under load; now nothing but the close can bring it).
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)   # seconds
    page.click("#close-round")
    page.click("#close-yes")
    page.wait_for_selector("#round-deadline:has-text('申诉截止还剩')")
    page.wait_for_selector("[data-clock-status]:has-text('本轮已结束')")
    assert not page.is_visible("#close-round") and page.is_visible("#reopen-form")
    page.clock.resume()

    page.select_option("#appeal-form select[name=side]", "EW")          # an appeal within the deadline
    page.fill("#appeal-form input[name=grounds]", "迟到时间计算有误")
    page.click("#appeal-form button[type=submit]")
    item = page.locator("#appeals li[data-appeal]")
    item.wait_for()
    assert "迟到时间计算有误" in item.inner_text() and "等待裁判长裁决" in item.inner_text()
    assert "有争议" in page.inner_text(f'#desk-tables tr[data-match-id="{tables[1].pk}"]')
    page.screenshot(path=f"{SHOTS}/desk-closed-1366.png", full_page=True)
    item.locator("input[name=reason]").fill("按签到表确认")
    item.locator("button.uphold").click()
    page.wait_for_selector("#appeals-empty:not([hidden])")
    decision = AppealDecision.objects.get()
    assert (decision.instance, decision.outcome, decision.decided_by_id) == (1, "upheld", chief.pk)

    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    page.wait_for_selector("#desk-tables tbody tr")
    page.screenshot(path=f"{SHOTS}/desk-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    # reopened: the desk and its clock say one status at once (issue 43: "本轮已结束" beside "本轮进行中"); the
    # page's timers stopped again, so only the reopening changes them
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)   # seconds
    page.fill("#reopen-form input[name=reason]", "更正第1桌成绩")
    page.click("#reopen-form button[type=submit]")
    expect(page.locator("#round-state")).to_contain_text("本轮进行中")
    expect(page.locator("[data-clock-status]")).not_to_contain_text("本轮已结束")
    assert page.is_visible("#close-round")


@pytest.mark.browser
def test_the_desk_writes_times_on_the_events_clock_whatever_the_devices_zone(desk_round, live_server, new_context):
    """A chief's laptop set to another zone read "成绩于19:37公布" where the table pages said 03:41: the desk
    now writes its times in the server's zone (the page's meta time-zone), as every server-made page does."""
    rnd, tables, _referee, chief = desk_round
    page = new_context(timezone_id="America/New_York").new_page()
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/desk/")
    approval = page.locator('#approvals li[data-ruling]')
    approval.wait_for()
    at = Ruling.objects.get(match=tables[1]).recorded_at.astimezone(zoneinfo.ZoneInfo(settings.TIME_ZONE))
    assert at.strftime("%H:%M") in approval.inner_text(), approval.inner_text()

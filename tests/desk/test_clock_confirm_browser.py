"""The chief's clock page in headless Chromium at 1366×768 (issue #12 item 6, clock safety): starting a clock,
changing the time by more than five minutes and starting a round while another runs ask first; the last is
refused unless the event allows parallel rounds. Screenshots in /tmp/desk-shots/."""
import pathlib

import pytest

from tests.conftest import login
from tests.tournament.test_clock_fixtures import _fresh_cache, make_round  # noqa: F401
from tournament.clocks import safety
from tournament.models import ClockEvent, Round

SHOTS = pathlib.Path("/tmp/desk-shots")


def _clock_page(page, live_server, rnd):
    page.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/clock/")


def _started(rnd):
    return ClockEvent.objects.filter(round=rnd, kind="start").exists()


@pytest.mark.browser
def test_the_clock_asks_before_starting_and_before_big_changes(transactional_db, live_server, page, make_user):
    SHOTS.mkdir(exist_ok=True)
    rnd = make_round(tables=2)
    chief = make_user("chief_referee")
    page.set_viewport_size({"width": 1366, "height": 768})
    login(page, live_server, chief)
    _clock_page(page, live_server, rnd)

    page.click("button[name=action][value=start]")                       # start: asked first
    question = page.locator("#confirm-question").inner_text()
    assert "开始" in question and "计时" in question, question
    page.screenshot(path=str(SHOTS / "clock-confirm-start-1366.png"), full_page=True)
    assert not _started(rnd)
    page.click("#confirm-no")                                             # cancelled: nothing happens
    assert page.locator("#confirm-box").count() == 0 and not _started(rnd)
    page.click("button[name=action][value=start]")
    page.click("#confirm-yes")
    page.wait_for_selector("button[name=action][value=pause]")
    assert _started(rnd)

    hall = page.locator("form.clock-add").first                          # −60 minutes: asked first
    hall.locator("input[name=minutes]").fill("-60")
    hall.locator("button[type=submit]").click()
    question = page.locator("#confirm-question").inner_text()
    assert "-60" in question, question
    page.screenshot(path=str(SHOTS / "clock-confirm-minus60-1366.png"), full_page=True)
    before = ClockEvent.objects.filter(round=rnd).count()
    with page.expect_navigation():
        page.click("#confirm-yes")
    page.screenshot(path=str(SHOTS / "clock-after-minus60-1366.png"), full_page=True)
    assert ClockEvent.objects.filter(round=rnd).count() == before + 1
    hall = page.locator("form.clock-add").first                          # 3 minutes: no question
    hall.locator("input[name=minutes]").fill("3")
    with page.expect_navigation():
        hall.locator("button[type=submit]").click()
    assert page.locator("#confirm-box").count() == 0
    assert ClockEvent.objects.filter(round=rnd).count() == before + 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366


@pytest.mark.browser
def test_a_second_round_is_refused_unless_parallel_rounds_are_allowed(transactional_db, live_server, page,
                                                                     make_user):
    SHOTS.mkdir(exist_ok=True)
    first = make_round(tables=1)
    second = Round.objects.create(stage=first.stage, number=2, name="第二轮")
    chief = make_user("chief_referee")
    page.set_viewport_size({"width": 1366, "height": 768})
    login(page, live_server, chief)
    _clock_page(page, live_server, first)
    page.click("button[name=action][value=start]")
    page.click("#confirm-yes")
    page.wait_for_selector("button[name=action][value=pause]")

    _clock_page(page, live_server, second)
    page.click("button[name=action][value=start]")
    question = page.locator("#confirm-question").inner_text()
    assert "第一轮" in question, question                                  # names the round that runs
    with page.expect_navigation():
        page.click("#confirm-yes")
    body = page.inner_text("main")
    assert "第一轮" in body and "同时进行" in body, body                      # refused, naming it
    page.screenshot(path=str(SHOTS / "clock-refused-parallel-1366.png"), full_page=True)
    assert not _started(second)

    safety.set_parallel_rounds(first.stage.event, True)                   # several halls
    _clock_page(page, live_server, second)
    page.click("button[name=action][value=start]")
    assert "第一轮" in page.locator("#confirm-question").inner_text()
    page.click("#confirm-yes")
    page.wait_for_selector("button[name=action][value=pause]")
    assert _started(second)
    page.screenshot(path=str(SHOTS / "clock-parallel-started-1366.png"), full_page=True)

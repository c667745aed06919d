"""Issue 27 items 17 and 21 in Chromium at 390×844: the table page before the hall clock starts says hands may
be recorded all the same and its clock reads the round's status; once the chief starts the clock the line goes
(without a reload); a round played without its clock says so instead of "未开始 2小时00分00秒" beside its
finished tables; a closed round's table page says where to appeal. Screenshots: var/…/screenshots/guidance-*.png."""
import pytest
from django.utils import timezone

from tests.conftest import login
from tests.tournament.test_clock_fixtures import _fresh_cache, chief, make_round, play  # noqa: F401
from tests.tournament.test_swiss_browser import shots_dir
from tournament.clocks import services as cs
from tournament.competition import rounds
from tournament.models import Match

PHONE = {"width": 390, "height": 844}
HALL = {"width": 1920, "height": 1080}


def shot(page, name):
    page.screenshot(path=str(shots_dir() / f"guidance-{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


@pytest.mark.browser
def test_the_table_page_lines_follow_the_clock_and_the_round(transactional_db, live_server, page, chief):  # noqa: F811
    page.set_viewport_size(PHONE)
    rnd = make_round(profile_slug="union-games", tables=2)
    Match.objects.filter(round=rnd).update(status=Match.Status.SCHEDULED)
    first, second = Match.objects.filter(round=rnd).order_by("table")
    page.goto(f"{live_server.url}/tables/{first.pk}/")
    page.wait_for_function("document.querySelector('[data-clock-time]').textContent.includes('秒')")
    assert page.locator("#guidance-clock").is_visible() and "照样可以记录" in page.inner_text("#guidance-clock")
    assert page.inner_text("[data-clock-status]") == "未开始"
    shot(page, "table-clock-not-started")

    cs.start_clock(rnd, chief)                      # the page's next poll hides the line
    page.wait_for_selector("#guidance-clock", state="hidden")
    assert page.inner_text("[data-clock-status]") == "剩余时间"

    # the chief's console names the offences that wait for the chief (union-games 二.4, 二.13)
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/tables/{second.pk}/console/")
    approval = page.inner_text("#guidance-approval")
    assert "作弊、偷牌" in approval and "传递违规信息" in approval
    shot(page, "console-approval")

    # another round, played without its clock: in progress, no full countdown beside a finished table
    other = make_round(profile_slug="union-games", tables=2)
    Match.objects.filter(round=other).update(status=Match.Status.SCHEDULED)
    done, playing = Match.objects.filter(round=other).order_by("table")
    play(playing, chief)
    Match.objects.filter(pk=done.pk).update(status=Match.Status.FINISHED, winner=done.ns, finished_at=timezone.now())
    page.set_viewport_size(HALL)
    page.goto(f"{live_server.url}/events/{other.stage.event.slug}/rounds/{other.pk}/display/")
    page.wait_for_function("document.querySelector('[data-round-clock]').getAttribute('data-round-status') === "
                           "'in_progress'")
    assert page.inner_text("[data-clock-status]") == "本轮进行中：赛场计时未开始"
    assert page.inner_text("[data-clock-time]") == "--:--"
    page.screenshot(path=str(shots_dir() / "guidance-hall-no-clock.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= HALL["width"]
    page.set_viewport_size(PHONE)

    Match.objects.filter(pk=playing.pk).update(status=Match.Status.FINISHED, winner=playing.ew,
                                               finished_at=timezone.now())
    rounds.close_round(other, chief)
    page.goto(f"{live_server.url}/tables/{done.pk}/")
    page.wait_for_function("document.querySelector('[data-round-clock]').getAttribute('data-status') === 'closed'")
    appeal = page.inner_text("#guidance-appeal")
    assert "提出申诉" in appeal and "仲裁组" in appeal and page.locator("#guidance-clock").count() == 0
    assert page.inner_text("[data-clock-status]") == "本轮已结束，成绩已公布"
    shot(page, "table-round-closed")
    page.goto(f"{live_server.url}/tables/{done.pk}/console/")
    assert "提出申诉" in page.inner_text("#guidance-appeal") and page.locator("#guidance-approval").count() == 0
    shot(page, "console-round-closed")

"""The hall display in headless Chromium: a Chinese countdown, then the announcement banner."""
import datetime as dt
import re

import pytest

from infra import clock
from tests.conftest import login
from tests.tournament.test_clock_fixtures import _fresh_cache, make_round  # noqa: F401
from tournament.clocks import services as cs


@pytest.mark.browser
def test_display_counts_down_then_shows_the_banner(transactional_db, live_server, phone, make_user):
    chief = make_user("chief_referee")
    rnd = make_round(tables=3)
    cs.start_clock(rnd, chief)
    phone.goto(f"{live_server.url}/events/{rnd.stage.event.slug}/rounds/{rnd.pk}/display/")
    time_el = phone.locator("[data-clock-time]")
    phone.wait_for_function("document.querySelector('[data-clock-time]').textContent.includes('秒')")
    first = time_el.inner_text()
    assert re.fullmatch(r"1小时(29|30)分\d\d秒", first), first
    assert phone.locator("[data-clock-banner]").is_hidden()
    assert phone.locator("[data-clock-tables] li").count() == 3
    # the countdown moves: waited for as such, not for a while (issue 43: no test waits on timing)
    phone.wait_for_function("first => document.querySelector('[data-clock-time]').textContent !== first", arg=first)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360

    with clock.frozen(clock.now() + dt.timedelta(minutes=60, seconds=5)):
        assert cs.fire_due(rnd.pk)[0] == "announce"
        banner = phone.locator("[data-clock-banner]")
        banner.wait_for(state="visible")   # the display's next poll
        assert "3" in banner.inner_text()
        phone.wait_for_function(
            "document.querySelector('[data-clock-tables] li .hands').textContent.includes('4')")


@pytest.mark.browser
def test_the_chiefs_table_overview_scrolls_on_a_phone_instead_of_squeezing(transactional_db, live_server, phone,
                                                                           make_user):
    """At 360 px the overview's headers stay on one line ("桌号", not "桌" over "号") inside a sideways scroll,
    and the page itself does not get wider."""
    chief = make_user("chief_referee")
    rnd = make_round(tables=3)
    cs.start_clock(rnd, chief)
    login(phone, live_server, chief)
    phone.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/clock/")
    lines = phone.eval_on_selector_all(".clock-overview th, .clock-overview td", """cells => cells.map(cell => {
        const range = document.createRange(); range.selectNodeContents(cell);
        return [cell.textContent, new Set([...range.getClientRects()].map(r => Math.round(r.top))).size]; })""")
    assert lines and all(n <= 1 for _text, n in lines), lines
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360

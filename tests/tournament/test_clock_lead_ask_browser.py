"""Issue 28 item 10 on the table page in headless Chromium on a 390×844 phone: once shenzhen's announcement
(000 第十五条 "自宣布之时起手中正在打（已开始出牌）的这副牌不算，之后各桌必须打满三副牌") reaches a table whose
referee had not answered, the page asks whether the first card of the hand in play had been played, and the
answer given then decides the hands left. Screenshots in /tmp/lead-ask-shots/."""
import pathlib

import pytest

from scoring.services import record_hand
from tests.conftest import login
from tests.scoring.test_table_page import zh
from tests.tournament.test_clock_fixtures import _fresh_cache, make_round, tables_of  # noqa: F401
from tournament import roles
from tournament.clocks import services as cs
from tournament.models import LeadReport

SHOTS = pathlib.Path("/tmp/lead-ask-shots")


@pytest.mark.browser
def test_the_table_page_asks_at_the_announcement_and_takes_the_answer(transactional_db, live_server, page,
                                                                      make_user, frozen_now):
    SHOTS.mkdir(exist_ok=True)
    referee, chief = make_user(roles.TABLE_REFEREE), make_user(roles.CHIEF_REFEREE)
    rnd = make_round("shenzhen-community", tables=1)
    (table,) = tables_of(rnd)
    table.referees.add(referee)
    cs.start_clock(rnd, chief)
    record_hand(table, referee, number=1, trump="S", defender_points=80, declarer="N")
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{table.pk}/")
    page.wait_for_selector("#lead-report:not([hidden])")
    assert page.locator("#lead-ask").is_hidden() and page.locator("#lead-made").is_visible()
    assert not page.is_checked("#lead-made")    # nobody answered: not ticked (the rule's default is not an answer)
    frozen_now.advance(minutes=60)
    cs.fire_due(rnd.pk)                                                   # the announcement, nobody answered
    assert cs.hands_left(table) == 4
    ask = page.locator("#lead-ask")
    ask.wait_for(state="visible")
    assert page.locator("#lead-made").is_hidden()
    assert page.inner_text("#lead-taken") == zh("No answer yet: taken as led, this hand does not count.")
    assert "2" in ask.locator(".lead-ask-hand").inner_text()
    page.screenshot(path=str(SHOTS / "asked-390.png"), full_page=True)
    page.click("#lead-no")
    page.wait_for_function("document.getElementById('lead-taken').textContent === %r"
                           % zh("Answer taken: not led yet, this hand is the first of the last hands."))
    assert page.get_attribute("#lead-no", "aria-pressed") == "true"
    page.screenshot(path=str(SHOTS / "answered-390.png"), full_page=True)
    report = LeadReport.objects.get(match=table)
    assert (report.hand_number, report.lead_made, report.reported_by_id) == (2, False, referee.pk)
    table.refresh_from_db()
    assert cs.hands_left(table) == 3                                      # hands 2, 3, 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

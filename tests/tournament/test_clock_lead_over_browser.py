"""Issue 43 item 15 on the table page (headless Chromium, 390×844): "第 5 副已开始出牌" stayed on the page after
the match ended. Once the match is over the lead box leaves the page (its next read says so)."""
import pytest

from scoring.services import record_hand
from tests.conftest import login
from tests.tournament.test_clock_fixtures import _fresh_cache, make_round, tables_of  # noqa: F401
from tournament import roles
from tournament.clocks import services as cs
from tournament.competition import results


@pytest.mark.browser
def test_the_lead_box_leaves_the_table_page_once_the_match_is_over(transactional_db, live_server, page, make_user):
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
    results.decide_match(table, chief, winner="NS", kind="decided", reason="东西方弃权")
    page.wait_for_selector("#lead-report", state="hidden")   # the box's next read: the match is over
    assert "已开始出牌" not in page.inner_text("main")

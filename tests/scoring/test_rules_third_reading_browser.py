"""Issue 28 items 1 and 2 on the table page in headless Chromium on a 390×844 phone (company-league, 004):
the referee enters who buried the bottom (七.1/七.3) and whether a J capture was made with 主J or 副J (四.5).
Screenshots in /tmp/third-reading-shots/."""
import pathlib

import pytest

from demo.hands import scratch_match
from tests.conftest import login
from tests.scoring.test_table_page import record, zh
from tournament import roles

SHOTS = pathlib.Path("/tmp/third-reading-shots")


def open_table(page, live_server, make_user, hands):
    SHOTS.mkdir(exist_ok=True)
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match("company-league", referees=[referee])
    for number, points in enumerate(hands, start=1):    # 0: the declarers +3; 80: take-over; 200: +3 on it
        record(match, referee, number, points, declarer="N" if number == 1 else None)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    return match


def saved(page):
    page.wait_for_function("document.getElementById('form-status').textContent.trim() === %r" % zh("Saved"))


REBURIED = [0, 200, 80]      # NS 2 → 5 (S); EW take over, 2 → 5 (E); NS take over at 80: NS 5, EW 5, N declares


@pytest.mark.browser
def test_declarers_capture_a_reburied_bottom_on_a_phone(transactional_db, live_server, page, make_user):
    """004 七.3 "最后由进攻方扣底牌时，防守方抠底，则进攻方所捉分须扣减抠底所得分": NS declare 5, EW 5, EW
    re-buried a bottom of 20, NS win the last trick with a trump pair, EW have 90 → 90 − 80 = 10, NS +2, S
    declares (the page gave 90, a take-over)."""
    match = open_table(page, live_server, make_user, REBURIED)
    assert page.inner_text("#level-NS") == "5" and page.inner_text("#level-EW") == "5"
    form = page.locator("#hand-form")
    form.locator("select[name=trump]").select_option("S")
    form.locator("input[name=defender_points]").fill("90")
    form.locator("input[name=bottom_points]").fill("20")
    form.locator("select[name=lt_buried_by]").select_option("defenders")
    by = form.locator("select[name=lt_by]")
    by.select_option("declarers")
    assert by.locator("option:checked").inner_text() == zh("Declarers (bottom captured: off the defenders’ points)")
    form.locator("select[name=lt_shape]").select_option("pair")
    page.screenshot(path=str(SHOTS / "rebury-390.png"), full_page=True)
    form.locator("button[type=submit]").click()
    saved(page)
    assert page.inner_text("#level-NS") == "7" and page.inner_text("#level-EW") == "5"
    assert "防家得分90→10" in page.inner_text("#table-history")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("7", "5")
    hand = match.hands.get(number=4)
    assert hand.defender_points == 90 and hand.last_trick["buried_by"] == "defenders"
    assert "南" in page.inner_text("#declarer-line")                     # S, N's partner, declares next


@pytest.mark.browser
def test_the_reburiers_keep_their_bottom_on_a_phone(transactional_db, live_server, page, make_user):
    """004 七.1 "最后扣底牌一方胜为保底": EW re-buried, EW win the last trick with 70 → 70 (the page gave 70 + 80
    = 150), NS +1."""
    match = open_table(page, live_server, make_user, REBURIED)
    form = page.locator("#hand-form")
    form.locator("select[name=trump]").select_option("S")
    form.locator("input[name=defender_points]").fill("70")
    form.locator("input[name=bottom_points]").fill("20")
    form.locator("select[name=lt_buried_by]").select_option("defenders")
    by = form.locator("select[name=lt_by]")
    by.select_option("defenders")
    assert by.locator("option:checked").inner_text() == zh("Defenders (bottom kept by those who buried it)")
    form.locator("select[name=lt_shape]").select_option("pair")
    form.locator("button[type=submit]").click()
    saved(page)
    assert page.inner_text("#level-NS") == "6" and page.inner_text("#level-EW") == "5"
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("6", "5")
    assert match.hands.get(number=4).defender_points == 70


@pytest.mark.browser
def test_a_capture_with_another_suits_j_on_a_phone(transactional_db, live_server, page, make_user):
    """004 四.5 "用主J抠底可将对方降到2，用副J抠底可将对方降到6": NS on J, EW reach 80 with a 副J → NS 6. The page
    asks 主J / 副J once J is picked and refuses to save without the answer."""
    # EW 2 → 5 → 8 on stage, NS take over at 80 and climb 2 → 5 → 8 → J: NS J (S declares), EW 8
    match = open_table(page, live_server, make_user, [200, 0, 80, 0, 0, 0])
    assert page.inner_text("#level-NS") == "J" and page.inner_text("#level-EW") == "8"
    form = page.locator("#hand-form")
    form.locator("select[name=trump]").select_option("S")
    form.locator("input[name=defender_points]").fill("60")
    form.locator("input[name=bottom_points]").fill("10")
    form.locator("select[name=lt_by]").select_option("defenders")
    assert form.locator("label.lt-main").is_hidden()
    form.locator("select[name=lt_rank]").select_option("J")
    main = form.locator("select[name=lt_main]")
    assert main.is_visible()
    assert main.locator("option[value=false]").inner_text() == zh("Another suit’s {rank}").replace("{rank}", "J")
    form.locator("button[type=submit]").click()                          # unanswered: nothing sent
    error = page.locator("#error-last_trick\\.main_rank")
    assert error.is_visible()
    assert error.inner_text() == zh("Choose the trump suit’s {rank} or another suit’s {rank}.").replace("{rank}", "J")
    assert match.hands.count() == 6
    main.select_option("false")
    assert main.locator("option:checked").inner_text() == zh("Another suit’s {rank}").replace("{rank}", "J")
    page.locator("h2#form-title").click()                                 # out of the select
    main.screenshot(path=str(SHOTS / "other-suit-j-select.png"))
    page.screenshot(path=str(SHOTS / "other-suit-j-390.png"), full_page=True)
    form.locator("button[type=submit]").click()
    saved(page)
    assert page.inner_text("#level-NS") == "6" and page.inner_text("#level-EW") == "8"   # the page gave 2
    assert "副J" in page.inner_text("#table-history")           # 庄家打J，…用副J抠底：庄家方降到6
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("6", "8")
    hand = match.hands.get(number=7)
    assert (hand.defender_points, hand.bottom_points) == (60, 10)
    assert hand.last_trick["rank"] == "J" and hand.last_trick["main_rank"] is False

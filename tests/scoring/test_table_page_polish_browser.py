"""Issue 27 items 10 and 19 on the table page in headless Chromium on a 390×844 phone: the correction of the
last hand names that hand and starts from its stored values; the tractor's pairs are asked only for a tractor;
the two pairs' players are shown; the first-lead box says what ticking it means. Screenshots in
/tmp/table-polish-shots/."""
import pathlib

import pytest

from demo.hands import scratch_match
from scoring import services
from tests.conftest import login
from tests.scoring.test_table_page import zh
from tournament import roles

SHOTS = pathlib.Path("/tmp/table-polish-shots")
LEAD_HELP = ("Tick it once the first card of this hand has been played; leave it unticked while the cards are "
             "shuffled, dealt or trump is declared. Why: when the chief referee announces the last hands, a hand "
             "already being played does not count towards them, and a hand not yet led is the first of them.")


def hand_title(number, correcting=False):
    return (zh("Correcting hand %(number)s") if correcting else zh("Hand %(number)s")) % {"number": number}


def open_table(page, live_server, make_user):
    SHOTS.mkdir(exist_ok=True)
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    services.record_hand(match, referee, number=1, trump="H", defender_points=45, declarer="N")
    services.record_hand(match, referee, number=2, trump="S", defender_points=45)
    services.record_hand(match, referee, number=3, trump="D", defender_points=60, bottom_points=10,
                         last_trick={"by": "declarers", "shape": "pair", "pairs": 1, "trump": False})
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    return match


@pytest.mark.browser
def test_correcting_the_last_hand_names_it_and_fills_its_values(transactional_db, live_server, page, make_user):
    match = open_table(page, live_server, make_user)
    form = page.locator("#hand-form")
    title = page.locator("#form-title")
    assert title.inner_text() == hand_title(4)
    page.check("#correct-last")
    assert title.inner_text() == hand_title(3, correcting=True)
    assert form.locator("select[name=trump]").input_value() == "D"
    assert form.locator("input[name=defender_points]").input_value() == "60"
    assert form.locator("input[name=bottom_points]").input_value() == "10"
    assert form.locator("select[name=lt_by]").input_value() == "declarers"
    assert form.locator("select[name=lt_shape]").input_value() == "pair"
    assert not form.locator("input[name=lt_trump]").is_checked()
    page.screenshot(path=str(SHOTS / "correcting-390.png"), full_page=True)

    page.uncheck("#correct-last")                                     # back to the next hand: an empty form
    assert title.inner_text() == hand_title(4)
    assert form.locator("input[name=defender_points]").input_value() == ""
    assert form.locator("input[name=lt_trump]").is_checked()

    page.check("#correct-last")
    form.locator("input[name=defender_points]").fill("65")
    form.locator("button[type=submit]").click()
    page.wait_for_function("document.getElementById('form-status').textContent.trim() === %r" % zh("Saved"))
    corrected = match.hands.get(number=3, version=2)
    assert (corrected.trump, corrected.defender_points, corrected.bottom_points) == ("D", 65, 10)
    assert corrected.last_trick["shape"] == "pair" and corrected.last_trick["trump"] is False
    assert page.locator("#form-title").inner_text() == hand_title(4)  # the fresh form after the save
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.browser
def test_players_tractor_pairs_and_lead_help_on_a_phone(transactional_db, live_server, page, make_user):
    open_table(page, live_server, make_user)
    assert page.inner_text("#players-NS") == "甲、乙" and page.inner_text("#players-EW") == "丙、丁"
    pairs = page.locator("#hand-form label.lt-pairs")
    shape = page.locator("#hand-form select[name=lt_shape]")
    assert shape.input_value() == "single" and not pairs.is_visible()   # 单张: no 拖拉机对数
    shape.select_option("pair")
    assert not pairs.is_visible()
    shape.select_option("tractor")
    assert pairs.is_visible()
    page.screenshot(path=str(SHOTS / "tractor-390.png"), full_page=True)
    shape.select_option("single")
    assert not pairs.is_visible()
    assert page.locator("#lead-report .lead-help").text_content().strip() == zh(LEAD_HELP)
    assert "庄家 北" in page.inner_text("#table-history")               # 南/北/东/西 on a Chinese page
    page.locator("#lead-report").evaluate("el => { el.hidden = false; }")
    page.locator("#lead-report").screenshot(path=str(SHOTS / "lead-help-390.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

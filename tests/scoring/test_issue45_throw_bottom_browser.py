"""Issue 45 item 4 on the table page in headless Chromium on a 390×844 phone: the 牌型 甩牌, its hint under the
event's reading (003 一.16 "拖拉机扣底以张数乘2再乘分数"; the text names no throw), both readings.
Screenshots in /tmp/throw-bottom-shots/."""
import pathlib

import pytest

from demo.hands import scratch_match
from tests.conftest import login
from tests.scoring.test_table_page import record, zh
from tournament import roles
from tournament.events import rule_choices

SHOTS = pathlib.Path("/tmp/throw-bottom-shots")
LARGEST = "甩牌扣底按其中最大的一组牌计倍（单张×2，对子×4，拖拉机以张数×2）"
ALL_CARDS = "甩牌扣底按全部张数×2计倍（如一.16拖拉机以张数乘2）：甩♠A K K，3张×6"


@pytest.mark.browser
@pytest.mark.parametrize("reading, rule, factor", [(None, LARGEST, 4), ("all_cards", ALL_CARDS, 6)])
def test_a_throw_wins_the_last_trick_on_a_phone(transactional_db, live_server, page, make_user, reading, rule,
                                                factor):
    """♠A K K (3 trump cards, one pair) wins the last trick over a 20-point bottom: 60 + 20 × 4 (its largest
    combination, a pair: 一.16 "双扣底牌乘4") or 60 + 20 × 6 (all 3 cards × 2: "以张数乘2")."""
    SHOTS.mkdir(exist_ok=True)
    referee, organiser = make_user(roles.TABLE_REFEREE), make_user(roles.ORGANISER)
    match = scratch_match("union-games", referees=[referee])
    if reading:
        rule_choices.set_choices(match.round.stage.event, organiser, {"throw_bottom": reading})
        match.refresh_from_db()
    record(match, referee, 1, 45, declarer="N")
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    form = page.locator("#hand-form")
    throw_box = form.locator(".lt-throw")
    assert throw_box.is_hidden()
    form.locator("select[name=trump]").select_option("H")
    form.locator("input[name=defender_points]").fill("60")
    form.locator("input[name=bottom_points]").fill("20")
    form.locator("select[name=lt_by]").select_option("defenders")
    shape = form.locator("select[name=lt_shape]")
    shape.select_option("throw")
    assert shape.locator("option:checked").inner_text() == zh("Throw (several combinations led at once)") == "甩牌"
    throw_box.wait_for(state="visible")
    hint = page.inner_text("#throw-hint")
    assert hint.startswith(rule)
    assert ("最大一组牌的对数" if reading is None else "其中含几对") in hint
    assert form.locator("label.lt-pairs").is_hidden()
    form.locator("input[name=lt_cards]").fill("3")
    form.locator("input[name=lt_throw_pairs]").fill("1")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SHOTS / f"throw-{reading or 'largest'}-390.png"), full_page=True)
    form.locator("input[name=lt_throw_pairs]").blur()     # its change event first, then the tap on 保存
    form.locator("button[type=submit]").click()
    page.wait_for_function("document.getElementById('form-status').textContent.trim() === %r" % zh("Saved"))
    assert f"底分20×{factor}={20 * factor}" in page.inner_text("#table-history")
    hand = match.hands.get(number=2)
    assert hand.last_trick["shape"] == "throw" and hand.last_trick["cards"] == 3 and hand.last_trick["pairs"] == 1
    assert hand.final_points == 60 + 20 * factor


@pytest.mark.browser
def test_the_offline_queue_carries_the_throw(transactional_db, live_server, page, make_user):
    """Kept offline, then uploaded: the hand keeps its throw (3 cards, 1 pair) and counts as 003 一.16's default
    reading says (its largest combination, a pair: "双扣底牌乘4")."""
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match("union-games", referees=[referee])
    record(match, referee, 1, 45, declarer="N")
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    page.wait_for_selector("html[data-offline-ready]", state="attached", timeout=15_000)
    page.context.set_offline(True)
    form = page.locator("#hand-form")
    form.locator("select[name=trump]").select_option("H")
    form.locator("input[name=defender_points]").fill("60")
    form.locator("input[name=bottom_points]").fill("20")
    form.locator("select[name=lt_by]").select_option("defenders")
    form.locator("select[name=lt_shape]").select_option("throw")
    form.locator("input[name=lt_cards]").fill("3")
    form.locator("input[name=lt_throw_pairs]").fill("1")
    form.locator("input[name=lt_throw_pairs]").blur()
    form.locator("button[type=submit]").click()
    page.wait_for_selector("#offline-list li:nth-child(1)", timeout=10_000)
    assert not match.hands.filter(number=2).exists()
    page.context.set_offline(False)
    page.wait_for_selector("#table-history article.hand[data-number='2']")
    hand = match.hands.get(number=2)
    assert (hand.last_trick["shape"], hand.last_trick["cards"], hand.last_trick["pairs"]) == ("throw", 3, 1)
    assert hand.final_points == 60 + 20 * 4

"""The table page and the console keep working offline (issue 30): entries kept in IndexedDB with their
Idempotency-Key, shown as pending, kept over a reload (the service worker serves the pages), sent once and
in order when the connection returns; a refusal stops the queue without losing what is behind it; the
chief's desk shows the table whose phone holds entries. Run under the site's Content-Security-Policy."""
import pathlib

import pytest

from demo.hands import scratch_match
from rulings.models import Ruling
from scoring import services
from scoring.models import Hand
from scoring.presenters import state_payload
from tests.conftest import login
from tests.scoring.test_table_page import zh
from tournament import roles

SHOTS = pathlib.Path("/tmp/offline-shots")
PHONE = {"width": 390, "height": 844}


def zh_template(msgid):
    """A {% translate %} string's Chinese: its catalogue key doubles the percent signs (Django's templatize)."""
    return zh(msgid.replace("%", "%%")).replace("%%", "%")


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """The service worker and the queue's script run under the policy itself."""
    return {**browser_context_args, "bypass_csp": False, "viewport": PHONE}


def three_hands(match, user):
    for number, points in ((1, 45), (2, 60), (3, 40)):
        services.record_hand(match, user, number=number, trump="H", defender_points=points,
                             declarer="N" if number == 1 else None)


def open_for_offline(page, url):
    page.goto(url)
    page.wait_for_selector("html[data-offline-ready]", state="attached", timeout=15_000)


def keep_hand(page, points, count):
    page.select_option("select[name=trump]", "S")
    page.fill("input[name=defender_points]", str(points))
    page.fill("input[name=bottom_points]", "0")
    page.click("#hand-form button[type=submit]")
    page.wait_for_selector(f"#offline-list li:nth-child({count})", timeout=10_000)


def banner(page):
    return page.inner_text("#offline-banner")


@pytest.mark.browser
def test_offline_hands_and_a_ruling_survive_a_reload_and_upload_once_in_order(transactional_db, live_server,
                                                                               page, make_user):
    SHOTS.mkdir(exist_ok=True)
    page.set_default_timeout(15_000)
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    three_hands(match, referee)
    login(page, live_server, referee)
    table, console = f"{live_server.url}/tables/{match.pk}/", f"{live_server.url}/tables/{match.pk}/console/"
    open_for_offline(page, console)
    open_for_offline(page, table)
    page.wait_for_selector("#lead-report:not([hidden])")
    assert page.inner_text("#lead-hand") == "4"
    page.context.set_offline(True)
    for count, points in enumerate((80, 40, 120), start=1):
        keep_hand(page, points, count)
    # the lead box (000 第十五条) follows the queue too: hand 7, answered once the three hands are sent
    assert page.inner_text("#lead-hand") == "7"
    assert page.is_disabled("#lead-made")
    assert page.inner_text("#lead-waiting") == zh_template(
        "{n} hands of this table wait to upload: answer once they are sent.").replace("{n}", "3")
    page.locator("#lead-report").screenshot(path=str(SHOTS / "offline-lead-waiting.png"))
    page.fill("input[name=defender_points]", "83")     # a typo: refused on the phone, never queued
    page.click("#hand-form button[type=submit]")
    page.wait_for_selector("#error-defender_points:visible")
    assert page.locator("#offline-list li").count() == 3
    # the redeal button follows the queue: the next hand is 7, not the 4 the page was served with
    assert page.inner_text("#redeal-form button") == zh("Hand %(number)s: nobody declared trump (redeal)") % {
        "number": 7}
    page.goto(console)                                   # served by the service worker
    page.click("button.offence[data-code=delay]")
    page.check("input[name=side][value=NS]")
    page.wait_for_selector("#confirm:enabled")
    page.click("#confirm")
    page.wait_for_selector("#offline-list li:nth-child(4)")
    page.goto(table)                                     # reloaded offline: all four still there
    page.wait_for_selector("#offline-list li:nth-child(4)")
    assert banner(page) == zh_template("Offline · %(n)s waiting to upload") % {"n": 4}
    assert page.locator("#offline-list li", has_text=zh("Waiting to upload")).count() == 4
    assert page.inner_text("#level-NS") == zh("To be confirmed")
    assert page.inner_text("#form-title") == zh("Hand %(number)s") % {"number": 7}
    assert Hand.objects.filter(match=match).count() == 3 and not Ruling.objects.filter(match=match).exists()
    page.screenshot(path=str(SHOTS / "offline-pending.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.context.set_offline(False)
    page.wait_for_selector(f"#offline-banner:has-text('{zh('All uploaded')}')")
    page.wait_for_selector("#table-history article.hand[data-number='6']")
    page.wait_for_selector("#lead-made:enabled")
    assert page.inner_text("#lead-hand") == "7" and page.is_hidden("#lead-waiting")
    hands = Hand.objects.filter(match=match).order_by("number")
    assert [(h.number, h.defender_points) for h in hands] == [(1, 45), (2, 60), (3, 40), (4, 80), (5, 40), (6, 120)]
    ruling = Ruling.objects.get(match=match)   # once, after the hands: during hand 7
    assert ruling.hand_number == 7
    state = state_payload(match, referee)
    page.wait_for_selector(f"#level-NS:text-is('{state['levels']['NS']}')")
    assert page.inner_text("#level-EW") == state["levels"]["EW"]
    page.screenshot(path=str(SHOTS / "offline-uploaded.png"), full_page=True)


@pytest.mark.browser
def test_a_conflict_stops_the_queue_loses_nothing_and_the_desk_shows_the_table(transactional_db, live_server,
                                                                                page, new_context, make_user):
    SHOTS.mkdir(exist_ok=True)
    page.set_default_timeout(15_000)
    referee, chief = make_user(roles.TABLE_REFEREE), make_user(roles.CHIEF_REFEREE)
    match = scratch_match(referees=[referee, chief])
    three_hands(match, referee)
    table = f"{live_server.url}/tables/{match.pk}/"
    login(page, live_server, referee)
    open_for_offline(page, table)
    page.context.set_offline(True)
    keep_hand(page, 80, 1)
    keep_hand(page, 40, 2)

    other = new_context()   # the second phone, online (this module's context arguments)
    second = other.new_page()
    second.set_default_timeout(15_000)
    login(second, live_server, chief)
    second.goto(table)
    second.select_option("select[name=trump]", "D")
    second.fill("input[name=defender_points]", "100")
    second.click("#hand-form button[type=submit]")
    second.wait_for_selector("#table-history article.hand[data-number='4']")

    page.context.set_offline(False)
    page.wait_for_selector("#offline-list li.refused")
    refused = page.inner_text("#offline-list li.refused")
    assert "4" in refused and zh("Refused") in refused
    assert page.locator("#offline-list li").count() == 2          # the hand behind it is kept
    assert banner(page).startswith(zh_template("Upload stopped: %(n)s waiting; see the refused entry below.")[:4])
    page.wait_for_selector("#table-history article.hand[data-number='4']")   # the other phone's hand shown
    assert [(h.number, h.defender_points) for h in Hand.objects.filter(match=match, number__gte=4)] == [(4, 100)]
    page.screenshot(path=str(SHOTS / "offline-conflict.png"), full_page=True)

    event = match.round.stage.event
    second.goto(f"{live_server.url}/manage/{event.slug}/rounds/{match.round_id}/desk/")
    alert = zh("%(n)s entries waiting to upload · last seen %(at)s").split("%(n)s")[-1].split("%(at)s")[0].strip()
    row = second.locator(f"#desk-tables tr[data-match-id='{match.pk}']")
    row.locator(".alert", has_text=alert).wait_for()
    assert "2" in row.locator(".alert", has_text=alert).inner_text()
    second.screenshot(path=str(SHOTS / "desk-pending.png"), full_page=True)

    page.click("#offline-list li.refused button:nth-of-type(2)")   # drop it: the rest is sent
    page.wait_for_selector(f"#offline-banner:has-text('{zh('All uploaded')}')")
    assert Hand.objects.filter(match=match, number=5, defender_points=40).exists()
    other.close()


@pytest.mark.browser
def test_two_phones_at_one_table_see_each_others_hands(transactional_db, live_server, page, make_user):
    """Issue 30 item 3: a hand saved on the other phone shows here by itself while nothing is typed, and with a
    note above the form while a hand is being typed (the server would refuse the stale one anyway)."""
    SHOTS.mkdir(exist_ok=True)
    page.set_default_timeout(25_000)
    referee, second = make_user(roles.TABLE_REFEREE), make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee, second])
    three_hands(match, referee)
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    assert page.get_attribute("#table-live", "data-next") == "4"
    services.record_hand(match, second, number=4, trump="S", defender_points=60)   # the other phone
    page.wait_for_selector("#table-live[data-next='5']")
    page.screenshot(path=str(SHOTS / "two-phones-refreshed.png"), full_page=True)
    page.fill("input[name=defender_points]", "40")        # typing hand 5 here ...
    services.record_hand(match, second, number=5, trump="S", defender_points=80)   # ... hand 5 saved there
    page.wait_for_selector("#other-phone:visible")
    assert page.input_value("input[name=defender_points]") == "40"   # nothing typed is swept away
    assert page.get_attribute("#table-live", "data-next") == "5"
    page.screenshot(path=str(SHOTS / "two-phones-note.png"), full_page=True)


@pytest.mark.browser
def test_a_rebellion_kept_offline_uploads_before_the_hand_behind_it(transactional_db, live_server, page, make_user):
    """004 二.7 造反 called while the phone has no connection: kept in the queue like a hand, in order; the
    hand after it is East's at East–West's level once both are sent."""
    from tests.scoring.test_rebellion import _to_seven_four

    page.set_default_timeout(15_000)
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match("company-league", referees=[referee])
    _to_seven_four(match, referee)
    login(page, live_server, referee)
    open_for_offline(page, f"{live_server.url}/tables/{match.pk}/")
    page.context.set_offline(True)
    page.select_option("#rebel-form select[name=called_by]", "W")
    page.select_option("#rebel-form select[name=declarer]", "E")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#rebel-form button[type=submit]")
    page.wait_for_selector("#offline-list li:nth-child(1)")
    assert page.is_hidden("#rebel-form")            # the attackers are known again once the server answers
    # the kept 造反 holds no number (004 二.7 应重新起牌): the deal after it is still hand 4
    assert page.inner_text("#form-title") == zh("Hand %(number)s") % {"number": 4}
    keep_hand(page, 30, 2)
    page.context.set_offline(False)
    page.wait_for_selector(f"#offline-banner:has-text('{zh('All uploaded')}')")
    page.locator("#table-history article.hand[data-number='4']").nth(1).wait_for()
    rebellion, hand = Hand.objects.filter(match=match, number=4).order_by("pk")
    assert (rebellion.outcome, rebellion.called_by, rebellion.bid_winner) == ("rebel", "W", "E")
    assert (hand.declarer_seat, hand.level_played, hand.ew_level, hand.ns_level) == ("E", "4", "6", "7")
    page.wait_for_selector("#level-EW:text-is('6')")

"""Two phones at a table where the players record (390 px): each side enters hands on its own phone with its
own code and the other side confirms them; a dispute is decided by the floor referee on the referee's table
page; one phone goes offline, its entry waits on the phone and uploads once when the connection returns;
the desk lists the dispute while it is open; the stored match replays as recorded (0 mismatches)."""
import pathlib

import pytest

from scoring.models import Hand
from scoring.replay_check import check_match
from tests.conftest import login
from tests.scoring.test_table_page import zh
from tests.tournament.selfscore_support import make_table
from tournament.models import EntryStep, HandEntry, SideCode

SHOTS = pathlib.Path("/tmp/selfscore-shots")
PHONE = {"width": 390, "height": 844}


def phone(new_context, live_server, t, side, *, by_qr):
    """A phone of ``side``: the code from the slip's QR (the address's fragment) or typed."""
    context = new_context(viewport=PHONE, locale="zh-CN", extra_http_headers={"Accept-Language": "zh-hans"})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.on("dialog", lambda dialog: dialog.accept())
    url = f"{live_server.url}/tables/{t.match.pk}/self/"
    page.goto(url + (f"#code={t.code(side)}" if by_qr else ""))
    if not by_qr:
        page.fill("#code-form input[name=code]", f"{t.code(side)[:4]} {t.code(side)[4:]}")
        page.click("#code-form button[type=submit]")
    page.wait_for_selector("#code-known:not([hidden])")
    assert zh("North–South" if side == "NS" else "East–West") in page.inner_text("#code-side")
    return page


def enter(page, *, trump, points, declarer=None):
    if declarer:
        page.select_option("#hand-form select[name=declarer]", declarer)
    page.select_option("#hand-form select[name=trump]", trump)
    page.fill("#hand-form input[name=defender_points]", str(points))
    page.fill("#hand-form input[name=bottom_points]", "0")
    page.click("#hand-form button[type=submit]")


def waiting_seen(page, number):
    page.wait_for_selector(f"#entry-waiting[data-number='{number}']", timeout=30_000)


def confirm(page, number):
    waiting_seen(page, number)
    page.click("#entry-waiting [data-for=other]:not([hidden]) [data-entry-action=confirm]")
    page.wait_for_selector(f"#table-history article.hand[data-number='{number}']")


def shot(page, name):
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], name


@pytest.mark.browser
def test_two_phones_enter_confirm_dispute_and_upload_offline(transactional_db, live_server, new_context, make_user):
    SHOTS.mkdir(exist_ok=True)
    t = make_table(make_user)
    match = t.match
    ns = phone(new_context, live_server, t, "NS", by_qr=True)
    ew = phone(new_context, live_server, t, "EW", by_qr=False)
    shot(ns, "1-ns-ready")

    # hand 1: north–south enters, east–west confirms on its own phone
    enter(ns, trump="S", points=40, declarer="N")
    waiting_seen(ns, 1)
    assert ns.is_visible("#entry-waiting [data-for=entering]") and not ns.is_visible("#hand-form")
    shot(ns, "2-ns-waiting")
    waiting_seen(ew, 1)
    shot(ew, "3-ew-to-confirm")
    confirm(ew, 1)
    ns.wait_for_selector("#table-history article.hand[data-number='1']", timeout=30_000)

    # hand 2: east–west enters, north–south confirms
    ew.wait_for_selector("#hand-form")
    enter(ew, trump="H", points=60)
    confirm(ns, 2)

    # hand 3: disputed; the table stops; the desk lists it; the floor referee records the hand as it was
    ns.wait_for_selector("#hand-form")
    enter(ns, trump="C", points=20)
    waiting_seen(ew, 3)
    ew.fill("#entry-waiting input[name=note]", "闲家是 35 分")
    ew.click("#entry-waiting [data-for=other] [data-entry-action=dispute]")
    ew.wait_for_selector("#entry-waiting.disputed")
    ns.wait_for_selector("#entry-waiting.disputed", timeout=30_000)
    assert not ns.is_visible("#hand-form") and not ew.is_visible("#hand-form")
    shot(ew, "4-ew-disputed")
    desk = new_context(viewport={"width": 1280, "height": 900}, extra_http_headers={"Accept-Language": "zh-hans"})
    chief = desk.new_page()
    chief.set_default_timeout(20_000)
    login(chief, live_server, t.chief)
    rnd = match.round
    chief.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/desk/")
    chief.wait_for_selector("#selfscore-entries li.disputed[data-table='1']")
    chief.screenshot(path=str(SHOTS / "5-desk-dispute.png"), full_page=True)
    floor = new_context(viewport=PHONE, extra_http_headers={"Accept-Language": "zh-hans"}).new_page()
    floor.set_default_timeout(20_000)
    floor.on("dialog", lambda dialog: dialog.accept())
    login(floor, live_server, t.referee)
    floor.goto(f"{live_server.url}/tables/{match.pk}/")
    floor.wait_for_selector("#entry-decide")
    shot(floor, "6-floor-referee")
    enter(floor, trump="C", points=35)
    floor.wait_for_selector("#table-history article.hand[data-number='3']")
    decided = EntryStep.objects.get(entry__match=match, entry__number=3, state=EntryStep.State.DECIDED)
    assert decided.by == t.referee and decided.hand.defender_points == 35
    chief.wait_for_selector("#selfscore-entries li[data-table='1']", state="detached", timeout=30_000)

    # hand 4: north–south's phone is offline; the entry waits on the phone, uploads once when back
    ns.wait_for_selector("#table-history article.hand[data-number='3']", timeout=30_000)
    ns.wait_for_selector("#hand-form")
    ns.context.set_offline(True)
    enter(ns, trump="D", points=80)
    ns.wait_for_selector("#offline-list li")
    ns.wait_for_selector("#queued-entry:not([hidden])")
    assert not HandEntry.objects.filter(match=match, number=4).exists()
    shot(ns, "7-ns-offline")
    ns.context.set_offline(False)
    ns.evaluate("window.dispatchEvent(new Event('online'))")
    waiting_seen(ns, 4)
    confirm(ew, 4)
    assert HandEntry.objects.filter(match=match, number=4).count() == 1
    ns.wait_for_selector("#table-history article.hand[data-number='4']", timeout=30_000)
    shot(ns, "8-ns-after")
    chief.reload()
    chief.wait_for_selector("#selfscore-entries")
    chief.screenshot(path=str(SHOTS / "9-desk-clear.png"), full_page=True)

    hands = Hand.objects.filter(match=match, superseded_by__isnull=True).order_by("number")
    assert [(h.number, h.defender_points) for h in hands] == [(1, 40), (2, 60), (3, 35), (4, 80)]
    match.refresh_from_db()
    assert check_match(match) == []
    assert (match.ns_level, match.ew_level) == (hands[3].ns_level, hands[3].ew_level)

    # new slips for the round: asked first, naming the tables whose codes die; "cancel" issues nothing
    codes_before = SideCode.objects.filter(match=match).count()
    chief.click("#slips-form button[type=submit]")
    dialog = chief.locator("dialog.confirm-dialog")
    dialog.locator("li:has-text('共 1 桌')").wait_for()
    assert "立即作废" in dialog.inner_text()
    chief.screenshot(path=str(SHOTS / "10-desk-slips-asked.png"), full_page=True)
    dialog.locator("button.confirm-no").click()
    dialog.wait_for(state="detached")
    assert SideCode.objects.filter(match=match).count() == codes_before
    chief.click("#slips-form button[type=submit]")
    with chief.expect_download() as download:
        chief.locator("dialog.confirm-dialog button.confirm-yes").click()
    assert download.value.suggested_filename.endswith(".pdf")
    assert SideCode.objects.filter(match=match).count() == codes_before + 2
    # the phone still holds north-south's old code: refused as replaced, forgotten, the code form asks again
    enter(ns, trump="H", points=40)
    ns.wait_for_selector("#code-form:not([hidden]) #error-code:has-text('新码条')")
    assert ns.locator("#code-known").is_hidden()
    assert "请再按一次" not in ns.inner_text("#form-status")
    shot(ns, "11-ns-code-replaced")

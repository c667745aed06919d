"""Issue 17 item 3: the browser keeps a request's Idempotency-Key until the server answers definitively.

The console (and the table page) used to drop the key after any answer, a 500 included: a ruling the
server had committed before answering 500 was stored twice when the referee pressed again. Here the
first POST really reaches the server and is committed, but the phone is shown a 500 in its place
(Playwright fetches the real answer and replaces it); the page retries with the same key, the server
replays its stored answer, and exactly one row is stored.
"""
import pytest

from rulings.models import Ruling
from tests.conftest import login
from tests.scoring.test_table_page import fill_hand, zh
from tournament import roles

SERVER_ERROR = '{"field": null, "detail": "服务器未能完成这次请求"}'

# Every text #status (or #form-status) shows, in order: the retry message is visible only for a moment.
RECORD_STATUS = """(id) => {
  window.statusLog = [];
  const el = document.getElementById(id);
  new MutationObserver(() => window.statusLog.push(el.textContent)).observe(el, {childList: true,
    characterData: true, subtree: true});
}"""


def answer_500_after_committing(page, url_glob, keys):
    """Route the first POST to the server (it commits) but show the page a 500; later ones pass."""

    def handle(route, request):
        if request.method != "POST":
            route.continue_()
            return
        keys.append(request.headers.get("idempotency-key"))
        if len(keys) == 1:
            real = route.fetch()
            assert real.status == 201, real.text()  # stored on the server ...
            route.fulfill(status=500, content_type="application/json", body=SERVER_ERROR)  # ... the phone sees 500
        else:
            route.continue_()

    page.route(url_glob, handle)


def press_again_if_asked(page, button, status, saved_selector):
    """The referee presses again when the page says it is not saved (the old page: at once, new key)."""
    page.wait_for_selector(f"{saved_selector}, {status}.error")
    if page.is_visible(f"{status}.error"):
        page.click(button)
    page.wait_for_selector(saved_selector)


@pytest.mark.browser
def test_a_ruling_committed_before_a_500_is_stored_once(transactional_db, live_server, phone, make_user,
                                                         make_match):
    match = make_match()
    referee = make_user("table_referee")
    match.referees.add(referee)
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
    phone.evaluate(RECORD_STATUS, "status")
    keys = []
    answer_500_after_committing(phone, f"**/api/matches/{match.pk}/rulings/", keys)
    phone.click("button.offence[data-code=delay]")
    phone.check("input[name=side][value=NS]")
    phone.wait_for_selector("#preview:has-text('警告')")
    phone.click("#confirm")
    press_again_if_asked(phone, "#confirm", "#status", "#status.saved:has-text('已保存')")
    assert Ruling.objects.filter(match=match).count() == 1
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]  # the retry carried the same key
    log = phone.evaluate("window.statusLog")
    assert any("服务器暂时无法答复" in text and "重试" in text for text in log), log  # the retry was shown
    phone.screenshot(path="/tmp/v-api/console-retry.png")


@pytest.mark.browser
def test_a_hand_committed_before_a_500_is_saved_once_without_a_false_conflict(transactional_db, live_server,
                                                                              phone, make_user):
    from demo.hands import scratch_match

    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/")
    phone.evaluate(RECORD_STATUS, "form-status")
    keys = []
    answer_500_after_committing(phone, f"**/api/matches/{match.pk}/hands/", keys)
    fill_hand(phone, 45, declarer="N")
    saved = zh("Saved")
    phone.wait_for_function("document.getElementById('form-status').textContent.trim() === %r"
                            " || document.getElementById('form-status').classList.contains('error')" % saved)
    if phone.is_visible("#form-status.error"):  # the old page: the referee presses again, with a new key
        phone.click("#hand-form button[type=submit]")
    phone.wait_for_function("document.getElementById('form-status').textContent.trim() === %r" % saved)
    assert match.hands.count() == 1
    assert len(keys) == 2 and keys[0] and keys[0] == keys[1]
    retrying = zh("No answer from the server yet: sending the same entry again (attempt {n})…").replace("{n}", "1")
    assert retrying in phone.evaluate("window.statusLog")
    phone.screenshot(path="/tmp/v-api/table-retry.png")


@pytest.mark.browser
def test_a_conflict_keeps_the_key_and_a_refusal_drops_it(transactional_db, live_server, phone, make_user,
                                                         make_match):
    """409 (the same request still running, or a conflict) is not definitive: pressing again resends the
    same key. A 400 is definitive: the next attempt is a new request with a new key."""
    match = make_match()
    referee = make_user("table_referee")
    match.referees.add(referee)
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
    keys = []
    answers = iter([(409, '{"field": null, "detail": "同一请求仍在处理"}'),
                    (400, '{"field": null, "detail": "输入有误"}')])

    def record(route, request):
        if request.method != "POST":
            route.continue_()
            return
        keys.append(request.headers.get("idempotency-key"))
        status, body = next(answers, (None, None))
        if status:
            route.fulfill(status=status, content_type="application/json", body=body)
        else:
            route.continue_()

    phone.route(f"**/api/matches/{match.pk}/rulings/", record)
    phone.click("button.offence[data-code=delay]")
    phone.check("input[name=side][value=NS]")
    phone.wait_for_selector("#preview:has-text('警告')")
    phone.click("#confirm")
    phone.wait_for_selector("#status.error:has-text('同一请求仍在处理')")
    assert "不会重复保存" in phone.inner_text("#status")
    phone.locator("#status").screenshot(path="/tmp/v-api/console-unsure.png")
    phone.click("#confirm")
    phone.wait_for_selector("#status.error:has-text('输入有误')")
    phone.click("#confirm")
    phone.wait_for_selector("#status.saved:has-text('已保存')")
    assert len(keys) == 3 and None not in keys
    assert keys[0] == keys[1] != keys[2]
    assert Ruling.objects.filter(match=match).count() == 1

"""The console's own words (retrying, not confirmed, network errors, ...) come from the page, translated on the
server (#console-labels): a console switched to English shows them in English, a Chinese one in Chinese."""
import json
import re

import pytest
from django.urls import reverse

from tests.conftest import REPO, login

CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
LABELS = re.compile(r'<script id="console-labels" type="application/json">(.*?)</script>', re.S)

# Every text #status shows, in order (the retry message is visible only for a moment).
RECORD_STATUS = """() => {
  window.statusLog = [];
  const el = document.getElementById("status");
  new MutationObserver(() => window.statusLog.push(el.textContent)).observe(el, {childList: true,
    characterData: true, subtree: true});
}"""


def page_labels(client, match):
    html = client.get(f"/tables/{match.pk}/console/").content.decode()
    found = LABELS.search(html)
    assert found, "the console page carries no #console-labels"
    return json.loads(found.group(1))


def test_the_console_page_carries_its_words_in_the_active_language(client, table):
    match, users = table
    client.force_login(users["referee"])
    chinese = page_labels(client, match)
    assert chinese["server_busy"] == "服务器暂时无法答复"
    assert chinese["retrying"] == "%(reason)s，正在重试（第%(n)s次）…"
    assert chinese["unsure"] == "尚未确认保存：%(detail)s；请再试一次（不会重复保存）"
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    english = page_labels(client, match)
    assert english.keys() == chinese.keys()
    assert english["server_busy"] == "The server cannot answer right now"
    assert english["unsure"] == "Not confirmed as saved: %(detail)s. Try again: it will not be stored twice."
    assert not [value for value in english.values() if CJK.search(value)]


def test_the_console_script_writes_no_words_of_its_own():
    """Every Chinese character of the script was a word the English console showed in Chinese."""
    script = (REPO / "static/js/console.js").read_text(encoding="utf-8")
    assert not CJK.findall(script)


@pytest.mark.browser
def test_the_english_console_says_retrying_and_not_confirmed_in_english(transactional_db, live_server, phone,
                                                                        make_user, make_match):
    match = make_match()
    referee = make_user("table_referee")
    match.referees.add(referee)
    phone.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
    phone.wait_for_selector("html[lang=en]")
    phone.evaluate(RECORD_STATUS)
    answers = iter(["abort", (409, '{"field": null, "detail": "Still running"}')])

    def record(route, request):
        if request.method != "POST":
            route.continue_()
            return
        answer = next(answers, None)
        if answer == "abort":      # the network drops: the page retries by itself, same key
            route.abort()
        elif answer:               # then a 409: not definitive, the referee is asked to press again
            route.fulfill(status=answer[0], content_type="application/json", body=answer[1])
        else:
            route.continue_()

    phone.route(f"**/api/matches/{match.pk}/rulings/", record)
    phone.click("button.offence[data-code=delay]")
    assert phone.inner_text("#preview") == "Choose the offending side"
    phone.check("input[name=side][value=NS]")
    phone.wait_for_selector("#preview:has-text('Sanction: ')")
    phone.click("#confirm")
    phone.wait_for_selector("#status.error")
    status = phone.inner_text("#status")
    assert status.startswith("Not confirmed as saved: Still running. Try again: it will not be stored twice."), status
    log = phone.evaluate("window.statusLog")
    assert "Network interrupted: trying again (attempt 1)…" in log, log
    assert not [text for text in log if CJK.search(text.replace("Still running", ""))], log
    phone.click("#confirm")
    phone.wait_for_selector("#status.saved")
    assert phone.inner_text("#status").startswith("Saved: ")

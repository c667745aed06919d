"""The referee console in headless Chromium on a 360×740 phone: late arrival, preview, save, void."""
import pytest

from rulings.models import Ruling, RulingVoid
from tests.conftest import login


def test_console_page_is_for_the_tables_referees_only(client, table):
    match, users = table
    url = f"/tables/{match.pk}/console/"
    assert client.get(url).status_code == 302  # to the login page
    for role, status in (("other_referee", 403), ("organiser", 403), ("referee", 200), ("chief", 200)):
        client.force_login(users[role])
        assert client.get(url).status_code == status, role


def test_console_asks_for_minutes_only_when_the_offence_needs_them(client, table):
    match, users = table
    client.force_login(users["referee"])
    data = client.get(f"/tables/{match.pk}/console/").context["console"]
    needs = {o["code"]: o["needs"] for o in data["offences"]}
    assert needs["late"][""] == ["minutes"] and needs["delay"] == {"": [], "warning": [], "violation": []}
    assert needs["card_count"][""] == ["role"] and needs["wrong_follow"]["minor"] == ["cards"]
    assert "role" in needs["wrong_follow"]["established"]


def test_penalty_log_pages(client, table, make_match):
    match, users = table
    assert client.get(f"/matches/{match.pk}/penalties/").status_code == 200
    assert client.get(f"/events/{match.round.stage.event.slug}/penalties/").status_code == 200
    hidden = make_match(published=False)
    assert client.get(f"/matches/{hidden.pk}/penalties/").status_code == 404
    client.force_login(users["organiser"])
    assert client.get(f"/matches/{hidden.pk}/penalties/").status_code == 200


@pytest.mark.browser
def test_record_a_late_arrival_see_it_then_void_it(transactional_db, live_server, phone, make_user, make_match):
    match = make_match("two-deck-standard")
    referee = make_user("table_referee")
    match.referees.add(referee)
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.click("button.offence[data-code=late]")
    assert phone.is_visible("#minutes-field") and not phone.is_visible("#cards-field")
    assert not phone.is_visible("#role-field")
    phone.check("input[name=side][value=EW]")
    phone.fill("input[name=minutes]", "8")
    phone.wait_for_selector("#preview:has-text('首局扣20分')")
    assert Ruling.objects.count() == 0
    phone.click("#confirm")
    phone.wait_for_selector("#status.saved, #status.error")
    assert "已保存" in phone.inner_text("#status"), phone.inner_text("#status")
    phone.wait_for_selector("#ruling-list li:has-text('迟到8分钟')")
    ruling = Ruling.objects.get()
    assert (ruling.code, ruling.side, ruling.minutes, ruling.idempotency_key != "") == ("late", "EW", 8, True)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    phone.click("#void-last")
    phone.click("#void-last")
    phone.wait_for_selector("#ruling-list li.void")
    assert RulingVoid.objects.filter(ruling=ruling).count() == 1


@pytest.mark.browser
def test_a_lost_answer_is_retried_with_the_same_key_and_stored_once(transactional_db, live_server, phone,
                                                                    make_user, make_match):
    match = make_match()
    referee = make_user("table_referee")
    match.referees.add(referee)
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
    keys, lost = [], []

    def flaky(route, request):
        keys.append(request.headers.get("idempotency-key"))
        if lost:
            route.continue_()
            return
        answer = route.fetch()
        if answer.status == 201:   # the server stored it ...
            lost.append(answer.status)
            route.abort()          # ... but the answer never reaches the phone
        else:                      # a loaded server's 5xx (stored nothing): the phone retries it as it is
            route.fulfill(response=answer)

    phone.route(f"**/api/matches/{match.pk}/rulings/", lambda route, request:
                flaky(route, request) if request.method == "POST" else route.continue_())
    phone.click("button.offence[data-code=delay]")
    phone.check("input[name=side][value=NS]")
    phone.wait_for_selector("#preview:has-text('警告')")
    phone.click("#confirm")
    phone.wait_for_selector("#status.saved:has-text('已保存')")
    # what it means, not how many tries a loaded machine took: a stored answer was lost, the phone tried
    # again (at least once more) with the one key of the request, and the ruling is stored once
    assert lost == [201] and len(keys) >= 2 and set(keys) == {keys[0]} and keys[0]
    assert Ruling.objects.filter(match=match).count() == 1


@pytest.mark.browser
def test_an_error_answer_gets_a_new_key_and_previews_send_none(transactional_db, live_server, phone,
                                                              make_user, make_match):
    match = make_match()
    referee = make_user("table_referee")
    match.referees.add(referee)
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
    keys, preview_keys = [], []

    def record(route, request):
        keys.append(request.headers.get("idempotency-key"))
        if len(keys) == 1:  # a definitive refusal (a 409 or a 5xx would keep the key: test_console_retry)
            route.fulfill(status=400, content_type="application/json", body='{"detail": "请重试"}')
        else:
            route.continue_()

    def preview(route, request):
        preview_keys.append(request.headers.get("idempotency-key"))
        route.continue_()

    phone.route(f"**/api/matches/{match.pk}/rulings/", lambda route, request:
                record(route, request) if request.method == "POST" else route.continue_())
    phone.route(f"**/api/matches/{match.pk}/rulings/preview/", preview)
    phone.click("button.offence[data-code=delay]")
    phone.check("input[name=side][value=NS]")
    phone.wait_for_selector("#preview:has-text('警告')")
    phone.click("#confirm")
    phone.wait_for_selector("#status.error:has-text('请重试')")
    phone.click("#confirm")
    phone.wait_for_selector("#status.saved:has-text('已保存')")
    assert len(keys) == 2 and None not in keys and keys[0] != keys[1]
    assert preview_keys and preview_keys == [None] * len(preview_keys)
    assert Ruling.objects.filter(match=match).count() == 1

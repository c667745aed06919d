"""Issue 43, minor 9: a table referee recorded a new 作弊 (cheating) ruling at a match that had already ended.
A finished match takes a new ruling from a chief referee only, as its hands are corrected by a chief only
(``scoring.services``): the table's referee is refused with the reason (a 409, in Chinese), through the service,
the API and the console. 000 第十七条（一） (both sides late, both forfeit) still lets the referee record the
other side's lateness after the first forfeit."""
import json

import pytest

from rulings import services
from rulings.models import Ruling
from tests.conftest import login
from tournament.competition import results
from tournament.models import Match

REFUSAL = "本场比赛已结束：只有裁判长可以在此记录新的判罚"


def _finished(table):
    match, users = table
    results.decide_match(match, users["chief"], winner="NS", kind="decided", reason="时间到，南北方领先")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match, users


def test_the_table_referee_is_refused_a_new_ruling_after_the_end_and_the_chief_is_not(table):
    match, users = _finished(table)
    with pytest.raises(services.RulingError) as refused:
        services.record_ruling(match, users["referee"], "cheating", "EW")
    assert refused.value.status == 409 and refused.value.field == "match" and str(refused.value) == REFUSAL
    assert not Ruling.objects.filter(match=match).exists()
    ruling = services.record_ruling(match, users["chief"], "cheating", "EW")   # the chief may still rule
    assert ruling.code == "cheating"


def test_a_retry_of_a_ruling_stored_before_the_end_still_gets_it(table):
    """The ruling that ended the match, sent again with its key past the middleware: the stored one, no 409."""
    match, users = table
    first = services.record_ruling(match, users["referee"], "late", "NS", minutes=7, idempotency_key="k1")
    match.refresh_from_db()
    assert match.status == Match.Status.FORFEIT
    again = services.record_ruling(match, users["referee"], "late", "NS", minutes=7, idempotency_key="k1")
    assert again.pk == first.pk
    with pytest.raises(services.RulingError, match=REFUSAL):   # but no new offence of another kind
        services.record_ruling(match, users["referee"], "delay", "EW")


def test_the_api_answers_409_with_the_reason(client, table):
    match, users = _finished(table)
    client.force_login(users["referee"])
    answer = client.post(f"/api/matches/{match.pk}/rulings/", json.dumps({"code": "cheating", "side": "EW"}),
                         content_type="application/json")
    assert answer.status_code == 409, answer.json()
    assert answer.json()["field"] == "match" and answer.json()["detail"] == REFUSAL


def test_the_console_says_why_and_offers_no_offence(client, table):
    match, users = _finished(table)
    client.force_login(users["referee"])
    page = client.get(f"/tables/{match.pk}/console/")
    assert page.context["console"]["offences"] == [] and REFUSAL in page.content.decode()
    assert b'id="ruling-form"' not in page.content
    client.force_login(users["chief"])
    page = client.get(f"/tables/{match.pk}/console/")
    assert page.context["console"]["offences"] and REFUSAL not in page.content.decode()
    head = page.content.decode().split('class="levels"', 1)[1].split("</header>", 1)[0]
    assert 'id="hand-number"' not in head and match.get_status_display() in head   # not "副 n+1" after n hands


@pytest.mark.browser
def test_the_open_console_shows_the_refusal_in_chinese(transactional_db, live_server, phone, make_user, make_match):
    """The console was open when the chief decided the match: confirming a 作弊 shows the refusal, nothing is
    stored, and the page loaded afresh says so up front."""
    match = make_match()
    referee, chief = make_user("table_referee"), make_user("chief_referee")
    match.referees.add(referee)
    login(phone, live_server, referee)
    phone.goto(f"{live_server.url}/tables/{match.pk}/console/")
    phone.click("button.offence[data-code=cheating]")
    phone.check("input[name=side][value=EW]")
    phone.wait_for_selector("#preview:has-text('判负')")
    results.decide_match(match, chief, winner="NS", kind="decided", reason="时间到，南北方领先")
    phone.click("#confirm")
    phone.wait_for_selector(f"#status.error:has-text('{REFUSAL}')")
    assert not Ruling.objects.filter(match=match).exists()
    phone.set_viewport_size({"width": 390, "height": 740})
    phone.reload()
    phone.wait_for_selector(f"#ended-note:has-text('{REFUSAL}')")
    assert phone.locator("button.offence").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path="var/test/console-after-end.png", full_page=True)

"""Issue #43 (minor 9, item 3) in headless Chromium on a 390×844 phone: an approval that ends a match asks
first, naming the loser; the chief voids any ruling of a table, shown first what the void changes in the
later rulings (000 第十六条（二）（四）: a 2nd warning is a recorded violation, the 3rd violation a match loss the
chief referee approves) and in the result, with a reason asked. On the console and on the chief's desk.
Screenshots in var/…/screens/."""
import os
from pathlib import Path

import pytest

from rulings import services
from rulings.models import Approval, RulingVoid
from scoring.replay_check import check_match
from tests.conftest import login
from tests.rulings.test_void_any_ruling import _ladder_to_forfeit, _stored
from tests.tournament.test_clock_fixtures import make_round
from tournament.models import Match

SCREENS = Path(os.environ.get("DJANGO_VAR_DIR", "var")) / "screens"


def _shot(page, name):
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=False)


@pytest.mark.browser
def test_the_console_asks_before_a_match_loss_and_shows_what_a_void_changes(transactional_db, live_server, page,
                                                                           table):
    match, users = table
    delay, noise, peeking, misconduct = _ladder_to_forfeit(match, users["referee"])
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, users["chief"])
    page.goto(f"{live_server.url}/tables/{match.pk}/console/")

    page.locator("#pending button", has_text="核准").first.click()          # one click asks, does not act
    dialog = page.locator("dialog.confirm-dialog")
    dialog.locator("li", has_text="核准后本场判负：南北方负，比赛结束。").wait_for()
    assert dialog.locator("h2").inner_text() == "核准这条判罚？"
    _shot(page, "h4-console-approve-390")
    dialog.locator("button.confirm-no").click()                             # cancelled: nothing happens
    dialog.wait_for(state="detached")
    assert not Approval.objects.exists()
    page.locator("#pending button", has_text="核准").first.click()
    page.locator("dialog.confirm-dialog li", has_text="南北方负").wait_for()
    page.keyboard.press("Escape")                                           # Esc is a way back too
    page.locator("dialog.confirm-dialog").wait_for(state="detached")
    assert not Approval.objects.exists()
    page.locator("#pending button", has_text="核准").first.click()
    page.locator("dialog.confirm-dialog li", has_text="南北方负").wait_for()
    page.locator("dialog.confirm-dialog button.confirm-yes").click()
    page.locator("dialog.confirm-dialog").wait_for(state="detached")
    page.locator("#status.saved").wait_for()
    stored = _stored(match)
    assert Approval.objects.get().approved and (stored.status, stored.winner_id) == (Match.Status.FORFEIT,
                                                                                    stored.ew_id)

    page.locator(f'#ruling-list li[data-id="{delay.pk}"] button.void-one').click()   # not the last ruling
    dialog = page.locator("dialog.confirm-dialog")
    dialog.locator("li", has_text="本场结果撤销：比赛恢复进行。").wait_for()
    text = dialog.inner_text()
    assert "第1副，南北方：" in text and "判负" in text and "作废理由" in text, text
    _shot(page, "h4-console-void-390")
    dialog.locator("button.confirm-yes").click()                            # no reason: asked, nothing stored
    assert dialog.locator(".confirm-error").inner_text() == "请填写作废理由。"
    assert not RulingVoid.objects.exists()
    dialog.locator("input[name=reason]").fill("记错桌号")
    dialog.locator("button.confirm-yes").click()
    dialog.wait_for(state="detached")
    page.locator(f'#ruling-list li[data-id="{delay.pk}"].void').wait_for()
    row = RulingVoid.objects.get()
    assert (row.ruling_id, row.voided_by, row.reason) == (delay.pk, users["chief"], "记错桌号")
    stored = _stored(match)
    assert (stored.status, stored.winner_id) == (Match.Status.SCHEDULED, None) and check_match(stored) == []
    assert "判负" not in page.locator(f'#ruling-list li[data-id="{misconduct.pk}"]').inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.browser
def test_the_desk_asks_before_approving_and_voids_any_ruling_after_its_preview(transactional_db, live_server, page,
                                                                              make_user):
    rnd = make_round(tables=1)
    referee, chief = make_user("table_referee"), make_user("chief_referee")
    match = Match.objects.get(round=rnd)
    match.referees.add(referee)
    first = services.record_ruling(match, referee, "delay", "NS")
    services.record_ruling(match, referee, "delay", "NS")                  # the 2nd warning: a violation
    services.record_ruling(match, referee, "cheating", "EW")               # a match loss proposed
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, chief)
    page.goto(f"{live_server.url}/manage/{rnd.stage.event.slug}/rounds/{rnd.pk}/desk/")
    page.locator("#approvals button.approve").click()
    dialog = page.locator("dialog.confirm-dialog")
    dialog.locator("li", has_text="核准后").wait_for()
    assert "东西方" in dialog.inner_text()
    _shot(page, "h4-desk-approve-390")
    dialog.locator("button.confirm-no").click()
    dialog.wait_for(state="detached")
    assert not Approval.objects.exists()

    page.select_option("#void-form select[name=ruling]", str(first.pk))
    page.click("#void-form button[type=submit]")
    dialog = page.locator("dialog.confirm-dialog")
    dialog.locator("li", has_text="第1副，南北方：").wait_for()
    assert "违例" in dialog.inner_text()
    _shot(page, "h4-desk-void-390")
    dialog.locator("input[name=reason]").fill("重复记录")
    dialog.locator("button.confirm-yes").click()
    dialog.wait_for(state="detached")
    page.locator("#void-status", has_text="已作废").wait_for()
    assert RulingVoid.objects.get().ruling_id == first.pk
    assert check_match(_stored(match)) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

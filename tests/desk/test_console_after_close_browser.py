"""The table's referee on her console after the round closed (issue 27, item 4), in headless Chromium on a
390×844 phone and at 1366×768: the rulings and the reason show, no offence button, the appeal form files an
appeal. Screenshots in var/screens/."""
import os
from pathlib import Path

import pytest

from rulings import services
from rulings.models import Appeal
from tests.conftest import login
from tournament.competition import results, rounds

SCREENS = Path(os.environ.get("DJANGO_VAR_DIR", "var")) / "screens"


@pytest.mark.browser
@pytest.mark.parametrize("size", [(390, 844), (1366, 768)])
def test_the_console_after_close_reads_and_files_an_appeal(transactional_db, live_server, page, make_user,
                                                           make_match, size):
    match = make_match("shenzhen-community")
    referee, chief = make_user("table_referee"), make_user("chief_referee")
    match.referees.add(referee)
    ruling = services.record_ruling(match, referee, "delay", "NS")
    results.decide_match(match, chief, winner="NS", kind="decided", reason="双方同意")
    rounds.close_round(match.round, chief)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/console/")
    assert page.is_visible("#read-only-note") and page.is_visible("#round-closed")
    assert page.locator("button.offence").count() == 0 and page.locator("#void-last").count() == 0
    page.wait_for_selector(f'#ruling-list li[data-id="{ruling.pk}"]')
    page.click("#appeal-box summary")
    page.fill("#appeal-form input[name=grounds]", "不是超时")
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / f"console-after-close-{size[0]}.png"), full_page=True)
    page.click("#appeal-form button[type=submit]")
    page.wait_for_selector("#appeal-status.saved, #appeal-status.error")
    assert "saved" in page.get_attribute("#appeal-status", "class"), page.inner_text("#appeal-status")
    assert Appeal.objects.filter(ruling=ruling, filed_by=referee).exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]

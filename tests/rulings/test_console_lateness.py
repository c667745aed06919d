"""The console takes a lateness in minutes and seconds and, for a lateness recorded hands later, says in
its preview which hand it changes and how the current levels move (issue 13, item 4)."""
import os
from pathlib import Path

import pytest

from rulings.models import Ruling
from scoring.services import record_hand
from tests.conftest import login

SCREENS = Path(os.environ.get("DJANGO_VAR_DIR", "var")) / "screens"


@pytest.mark.browser
def test_minutes_and_seconds_and_the_hand_a_late_ruling_changes(transactional_db, live_server, page, make_user,
                                                               make_match):
    """002 二 迟到6—10分钟: 5 min 30 s is in 6—10 (a part minute counts as the next): 20 points in hand 1."""
    match = make_match("two-deck-standard")
    referee = make_user("table_referee")
    match.referees.add(referee)
    record_hand(match, referee, number=1, trump="S", defender_points=65, declarer="N")
    record_hand(match, referee, number=2, trump="S", defender_points=40)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/console/")
    page.click("button.offence[data-code=late]")
    assert page.is_visible("input[name=minutes]") and page.is_visible("input[name=seconds]")
    page.check("input[name=side][value=NS]")
    page.fill("input[name=minutes]", "5")
    page.fill("input[name=seconds]", "30")
    page.wait_for_selector("#preview-impact")
    impact = page.inner_text("#preview-impact")
    assert "第1副" in impact and "南北" in impact and "→" in impact, impact
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / "console-late-impact.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#confirm")
    page.wait_for_selector("#status.saved, #status.error")
    ruling = Ruling.objects.get()
    assert (ruling.minutes, ruling.seconds, ruling.hand_number) == (5, 30, 1)

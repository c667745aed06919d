"""Issue 27 item 16 in Chromium at 390×844 and 1366×768: on the organiser choices page (主办方选择) every radio
button sits on its reading's line, before its words, not centred above them. Screenshots go to
var/…/screenshots/rule-choices-*.png."""
from pathlib import Path

import pytest
from django.conf import settings

from tests.conftest import login
from tests.tournament.test_entries_services import make_event
from tournament import roles


@pytest.mark.browser
@pytest.mark.parametrize("size", [{"width": 390, "height": 844}, {"width": 1366, "height": 768}])
def test_each_radio_sits_before_its_words(transactional_db, live_server, page, make_user, size):
    event = make_event("radios", "shenzhen-community")
    organiser = make_user(roles.ORGANISER)
    page.set_viewport_size(size)
    login(page, live_server, organiser)
    page.goto(f"{live_server.url}/manage/{event.slug}/rule-choices/")
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"rule-choices-{size['width']}.png"), full_page=True)
    readings = page.locator("label.reading")
    assert readings.count() >= 2
    for i in range(readings.count()):
        label = readings.nth(i)
        radio = label.locator("input[type=radio]").bounding_box()
        words = label.evaluate("""l => { const r = document.createRange();
            const text = [...l.childNodes].find(n => n.nodeType === 3 && n.textContent.trim());
            r.selectNodeContents(text); const b = r.getClientRects()[0]; return {x: b.x, y: b.y, h: b.height}; }""")
        assert radio["x"] + radio["width"] <= words["x"] + 1, (i, radio, words)        # before its words
        middle = radio["y"] + radio["height"] / 2
        assert words["y"] - 2 <= middle <= words["y"] + words["h"] + 2, (i, radio, words)   # on their first line
        assert radio["width"] < 40, radio                                                # not a full-width block

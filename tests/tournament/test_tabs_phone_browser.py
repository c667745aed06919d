"""Issue 27 item 18 in Chromium at 390×844: on a phone the event's tabs (最终名次, 团体总分, 判罚记录 …) and the
organiser's wrap onto more lines instead of a row that scrolls sideways with no cue: every tab lies inside
the screen. Screenshots go to var/…/screenshots/tabs-*.png."""
from pathlib import Path

import pytest
from django.conf import settings

from demo.event import seed_demo
from tests.conftest import login
from tournament import roles


@pytest.mark.browser
def test_every_tab_is_in_sight_on_a_phone(transactional_db, live_server, page, make_user):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    event = seed_demo()[0]
    organiser = make_user(roles.ORGANISER)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, organiser)
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    for name, path in (("public", f"/events/{event.slug}/standings/"), ("organiser", f"/manage/{event.slug}/stages/")):
        page.goto(live_server.url + path)
        page.screenshot(path=str(folder / f"tabs-{name}-390.png"))
        for nav in page.locator("nav.tabs").all():
            assert nav.evaluate("n => n.scrollWidth <= n.clientWidth"), (name, "a tab row scrolls sideways")
            for tab in nav.locator("a").all():
                box = tab.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (name, tab.inner_text(), box)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name

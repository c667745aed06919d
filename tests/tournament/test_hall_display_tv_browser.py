"""Issue 27 item 8 in Chromium at 1920×1080: the hall display on a TV shows no site bar and every table of the
round on the screen (12 tables: all at once; 40: in pages that turn, "第 1/N 页"), nothing scrolled off.
Screenshots go to var/…/screenshots/hall-tv-*.png."""
from pathlib import Path

import pytest
from django.conf import settings

from tests.tournament.test_clock_fixtures import _fresh_cache, make_round  # noqa: F401
from tournament.clocks import services as cs

TV = {"width": 1920, "height": 1080}


def inside(page, locator):
    box = locator.bounding_box()
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= TV["width"] + 1 \
        and box["y"] + box["height"] <= TV["height"] + 1


@pytest.mark.browser
@pytest.mark.parametrize("tables", [12, 40])
def test_every_table_fits_the_tv_or_turns_over(transactional_db, live_server, page, make_user, tables):
    chief = make_user("chief_referee")
    rnd = make_round(tables=tables)
    cs.start_clock(rnd, chief)
    page.set_viewport_size(TV)
    page.goto(f"{live_server.url}/events/{rnd.stage.event.slug}/rounds/{rnd.pk}/display/")
    page.wait_for_function(f"document.querySelectorAll('[data-clock-tables] li').length === {tables}")
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"hall-tv-{tables}.png"))
    assert page.locator("header.topbar").is_hidden(), "the site's top bar shows on the TV"
    assert page.evaluate("document.documentElement.scrollHeight") <= TV["height"] + 1
    assert inside(page, page.locator("[data-clock-time]"))
    shown = page.locator("[data-clock-tables] li:not([hidden])")
    assert all(inside(page, shown.nth(i)) for i in range(shown.count())), "a table is cut off"
    if tables == 12:
        assert shown.count() == 12
    else:
        pages = int(page.get_attribute("[data-round-clock]", "data-pages"))
        per_page = int(page.get_attribute("[data-round-clock]", "data-per-page"))
        assert pages == -(-tables // per_page) >= 2 and 1 <= shown.count() <= per_page
        assert f"/{pages} 页" in page.locator("[data-clock-tables-title]").inner_text()

"""A floor referee's own page on a 390-px phone (headless Chromium): every table a card in one column, no
sideways scroll, the figures (hands, time left, waiting, disputes) readable in Chinese. The screenshot goes
to var/…/screenshots/floor-tables-390.png."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import TEST_PASSWORD, login
from tests.tournament.floor_support import floor_event, floor_referees
from tournament import roles
from tournament.clocks import services as clock_services
from tournament.competition import blocks

PHONE = {"width": 390, "height": 844}


@pytest.mark.browser
def test_my_tables_at_390(transactional_db, live_server, page, make_user):
    event, stage, (rnd,) = floor_event(24, units=8)
    refs = floor_referees(event, 4)
    referee = refs[3]
    referee.first_name, referee.last_name = "晓梅", "欧阳"
    referee.set_password(TEST_PASSWORD)
    referee.save()
    blocks.assign_blocks(stage, rounds=[rnd], blocks=blocks.split(1, 12, [referee, refs[2]]))
    clock_services.start_clock(rnd, make_user(roles.CHIEF_REFEREE))
    page.set_viewport_size(PHONE)
    login(page, live_server, referee)
    page.goto(live_server.url + reverse("event_detail", args=[event.slug]))
    page.click(f"a[href='{reverse('floor_tables', args=[event.slug])}']")
    page.wait_for_selector(".floor-tables .floor-table")
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "floor-tables-390.png"), full_page=True)
    cards = page.locator(".floor-table")
    assert cards.count() == 4     # 1-6 but tables 2 and 6, where their unit plays (the other referee's too)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for i in range(cards.count()):
        box = cards.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    first, second = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
    assert second["y"] > first["y"] + first["height"] - 1          # one column
    text = page.locator("main").inner_text()
    assert "我的桌次" in text and "待确认" in text and "剩余时间" in text and re.search(r"\d:\d\d:\d\d", text)
    words = re.findall(r"[A-Za-z]{3,}", page.locator(".floor-tables").inner_text())
    assert not words, f"English on the page (make messages first): {words[:10]}"
    link = cards.nth(0).locator("a").first.bounding_box()
    assert link["height"] >= 24        # a finger's target


@pytest.mark.browser
def test_the_desk_section_at_390(transactional_db, live_server, page, make_user):
    event, stage, (rnd,) = floor_event(24, units=8)
    refs = floor_referees(event, 4)
    blocks.assign_blocks(stage, rounds=[rnd], blocks=blocks.split(1, 24, refs))
    chief = make_user(roles.CHIEF_REFEREE)
    clock_services.start_clock(rnd, chief)
    page.set_viewport_size(PHONE)
    login(page, live_server, chief)
    page.goto(live_server.url + reverse("desk", args=[event.slug, rnd.pk]))
    section = page.locator("#floor-referees")
    assert section.locator("details").count() == 4
    section.locator("summary").first.click()
    section.locator(".floor-table").first.wait_for()
    section.scroll_into_view_if_needed()
    folder = Path(settings.VAR_DIR) / "screenshots"
    section.screenshot(path=str(folder / "floor-desk-390.png"))
    assert "巡场裁判" in section.inner_text()
    box = section.locator(".floor-table").first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box

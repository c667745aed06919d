"""A new organiser's walk-through on a phone (390×844): the group standings' column headers (名次, 胜–负, 积分,
净胜级数, 总级数) broke one character a line; each header now stays on one line and the table fits its card,
the page not scrolling sideways. The clock settings' 修改 links the same."""
import pytest
from django.conf import settings

from demo.event import ensure_accounts, seed_demo
from demo.swiss import UNION_SLUG, seed_union_event
from tests.conftest import login
from tournament import roles

ONE_LINE = """t => { const r = document.createRange(); r.selectNodeContents(t);
  return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; }"""


@pytest.mark.browser
def test_group_standings_headers_stay_on_one_line_on_a_phone(transactional_db, live_server, page):
    event = seed_demo()[0]
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + f"/events/{event.slug}/groups/")
    headers = page.locator("table.standings thead th")
    assert headers.count() >= 6
    for th in headers.all():
        assert th.evaluate(ONE_LINE) <= 1, th.inner_text()
    for box in page.locator("section.group .scroll-x").all():
        assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), "a group table scrolls sideways"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.browser
def test_the_clock_rules_edit_links_stay_whole_on_a_phone(transactional_db, live_server, page, make_user):
    """Each round's 修改 link in the clock settings' table broke into 修 / 改 at 390 px."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    event = seed_demo()[0]
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, make_user(roles.ORGANISER))
    page.goto(live_server.url + f"/manage/{event.slug}/clock-settings/")
    links = page.locator("table.clock-rules td:last-child a")
    assert links.count() >= 1
    for link in links.all():
        assert link.evaluate(ONE_LINE) == 1, link.inner_text()


@pytest.mark.browser
def test_the_unit_standings_fit_a_phone(transactional_db, live_server, page):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    """团体总分: each counted pair and its place on one unbreakable line made the table wider than the screen
    (a sideways scroll with no cue); on a phone the place goes under the pair."""
    ensure_accounts()   # the demo's chief referee plays the meet to the end
    seed_union_event()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + f"/events/{UNION_SLUG}/units/")
    box = page.locator(".scroll-x:has(table.units)")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), box.evaluate("b => [b.scrollWidth, b.clientWidth]")

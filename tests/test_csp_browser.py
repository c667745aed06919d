"""The Content-Security-Policy in a real browser: the pages with scripts work and Chromium reports no
violation (no inline script, handler or style left); the language switch, the "back" link and Swagger UI
(served from the site's own files) still work. Chromium reports no error about the Permissions-Policy header
either (a feature it does not know, such as "bluetooth", is one on every page's console)."""
import pathlib

import pytest

from demo.hands import scratch_match
from tests.conftest import login
from tournament import roles

SHOTS = pathlib.Path("/tmp/harden-shots")


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    """This module checks the policy itself: it is enforced here (tests/conftest.py bypasses it elsewhere)."""
    return {**browser_context_args, "bypass_csp": False}


def violations(page):
    seen = []
    page.on("console", lambda m: seen.append(m.text)
            if "Content Security Policy" in m.text or "Permissions-Policy" in m.text else None)
    return seen


@pytest.mark.browser
def test_pages_run_under_the_policy_without_violations(transactional_db, live_server, page, make_user):
    SHOTS.mkdir(exist_ok=True)
    chief, organiser = make_user(roles.CHIEF_REFEREE), make_user(roles.ORGANISER)
    match = scratch_match(referees=[chief])
    event = match.round.stage.event
    seen = violations(page)
    login(page, live_server, organiser)
    for path in ["/", f"/events/{event.slug}/", f"/manage/{event.slug}/referee-grid/",
                 f"/manage/{event.slug}/entries/", f"/events/{event.slug}/staff/",
                 f"/events/{event.slug}/rounds/{match.round_id}/display/"]:
        response = page.goto(live_server.url + path)
        assert response.headers.get("content-security-policy"), path
        page.wait_for_load_state("networkidle")
    page.context.clear_cookies()
    login(page, live_server, chief)
    for path in [f"/tables/{match.pk}/", f"/tables/{match.pk}/console/",
                 f"/manage/{event.slug}/rounds/{match.round_id}/desk/", f"/manage/{event.slug}/arbitration/"]:
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    page.screenshot(path=str(SHOTS / "table-under-csp.png"), full_page=True)
    assert seen == []


@pytest.mark.browser
def test_the_language_switch_and_the_back_link_work_without_inline_script(transactional_db, live_server, page):
    seen = violations(page)
    page.goto(f"{live_server.url}/")
    page.goto(f"{live_server.url}/no-such-page/")
    assert "找不到" in page.inner_text("main") or "不存在" in page.inner_text("main")
    with page.expect_navigation():
        page.click("a[data-back]")
    assert page.url == f"{live_server.url}/"
    with page.expect_navigation():
        page.select_option("form.lang select[name=language]", "en")
    page.wait_for_selector("html[lang=en]")
    assert seen == []


@pytest.mark.browser
def test_swagger_ui_loads_from_the_site_itself(transactional_db, live_server, page):
    """Swagger UI sets inline styles (allowed on /api/docs/ only), never an inline script."""
    seen = violations(page)
    outside = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) else None)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "swagger.png"))
    assert outside == [] and seen == []


@pytest.mark.browser
def test_the_organiser_makes_and_revokes_a_token_on_a_phone(transactional_db, live_server, page, make_user):
    from tournament.models import ApiToken, EventRole  # noqa: PLC0415 (models after the database is set up)

    SHOTS.mkdir(exist_ok=True)
    organiser, referee = make_user(), make_user()
    referee.first_name = "王裁判"
    referee.save()
    match = scratch_match(referees=[referee])
    event = match.round.stage.event
    EventRole.objects.create(event=event, user=organiser, role="organiser")
    EventRole.objects.create(event=event, user=referee, role="table_referee")
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, organiser)
    page.goto(f"{live_server.url}/events/{event.slug}/staff/")
    page.fill("input[name=name]:below(h2#tokens)", "3号桌平板")
    page.select_option("select[name=user]:below(h2#tokens)", str(referee.pk))
    page.click("form[action$='/staff/tokens/'] button[type=submit]")
    key = page.inner_text("code.token-key")
    assert key.startswith("trk_") and ApiToken.objects.get().user == referee
    page.screenshot(path=str(SHOTS / "staff-token-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("table.tokens button:has-text('撤销')")
    page.wait_for_selector("table.tokens :text('已撤销')")
    assert ApiToken.objects.get().revoked_at is not None


@pytest.mark.browser
def test_the_referee_grid_keeps_its_scroll_position_after_saving(transactional_db, live_server, page, make_user):
    """The grid's keep-scroll behaviour (moved from an inline script to static/js/site.js)."""
    organiser = make_user(roles.ORGANISER)
    match = scratch_match()
    event = match.round.stage.event
    page.set_viewport_size({"width": 390, "height": 300})
    login(page, live_server, organiser)
    page.goto(f"{live_server.url}/manage/{event.slug}/referee-grid/")
    form = page.locator("form.keep-scroll")
    assert form.count() == 1
    button = form.locator("button.primary[type=submit]")
    button.scroll_into_view_if_needed()
    y = page.evaluate("window.scrollY")
    assert y > 0
    with page.expect_navigation():
        button.click()
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.scrollY > 0")
    assert abs(page.evaluate("window.scrollY") - y) < 60

"""Issue 27 item 11 in Chromium at 390×844: the new event's rule list names each rule set by its title and
part, never by the internal file name ("004_85440e8d0847e64a.txt"), and the version list offers only the
versions of the rule set chosen. Screenshot: var/…/screenshots/event-form-rules-390.png."""
import re
from pathlib import Path

import pytest
from django.conf import settings

from scoring.profile_store import sync_profiles
from tests.conftest import login
from tournament import roles


@pytest.mark.browser
def test_the_rules_are_named_by_title_and_the_versions_follow_the_choice(transactional_db, live_server, page,
                                                                          make_user):
    sync_profiles()
    organiser = make_user(roles.ORGANISER)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, organiser)
    page.goto(f"{live_server.url}/events/new/")
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "event-form-rules-390.png"), full_page=True)
    body = page.locator("main, body").first.inner_text()
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", body), "a rule document's file name is shown"
    assert not re.search(r"\d{3}_[0-9a-f]{16}\.txt", page.locator("select[name=profile]").inner_html())
    for slug in ("company-league", "shenzhen-community"):
        page.select_option("select[name=profile]", slug)
        offered = page.eval_on_selector_all("select[name=profile_version] option",
                                            "os => os.filter(o => !o.hidden && !o.disabled).map(o => o.dataset.profile || '')")
        assert offered[0] == "" and len(offered) > 1 and set(offered[1:]) == {slug}, (slug, offered)

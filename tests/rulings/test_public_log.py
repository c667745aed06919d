"""The public penalty log: display names, a round column, the referees' notes kept internal (with a length
limit), and a layout that fits a phone."""
import os
from pathlib import Path

import pytest
from django.urls import reverse

from rulings import services
from rulings.services import RulingError

SCREENS = Path(os.environ.get("DJANGO_VAR_DIR", "var")) / "screens"


def _record(table):
    match, users = table
    users["referee"].first_name, users["referee"].last_name = "明", "王"
    users["referee"].save()
    services.record_ruling(match, users["referee"], "delay", "NS", note="北家多次催促仍拖延")
    return match, users


def test_the_public_sees_names_and_rounds_but_not_the_notes(table, client):
    match, users = _record(table)
    for url in (reverse("event_penalty_log", args=[match.round.stage.event.slug]),
                reverse("match_penalty_log", args=[match.pk])):
        client.logout()
        page = client.get(url).content.decode()
        assert f"<td data-label=\"轮次\">{match.round}</td>" in page and match.ns.name in page
        assert "王明" in page and "明 王" not in page  # family name first, no space (common.names)
        assert users["referee"].username not in page and "北家多次催促仍拖延" not in page
        client.force_login(users["chief"])
        assert "北家多次催促仍拖延" in client.get(url).content.decode()


def test_a_note_longer_than_the_limit_is_refused(table):
    match, users = table
    with pytest.raises(RulingError) as refused:
        services.record_ruling(match, users["referee"], "delay", "NS", note="长" * 2001)
    assert refused.value.field == "note"


@pytest.mark.browser
def test_the_log_fits_a_phone(transactional_db, live_server, page, make_match, make_user):
    match = make_match()
    referee = make_user("table_referee")
    match.referees.add(referee)
    for code in ("delay", "noise", "peeking"):
        services.record_ruling(match, referee, code, "NS", note="x")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + reverse("event_penalty_log", args=[match.round.stage.event.slug]))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.locator("table.penalty-log tbody tr").count() == 3
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / "penalty-log-phone.png"), full_page=True)

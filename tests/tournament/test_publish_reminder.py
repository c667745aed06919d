"""Issue 43 item 12: while an event is not published, its organiser's pages remind the organiser (spectators
get "page not found") with a publish button right there, and the public pages the staff can still open say
they are not public yet. A published event shows neither."""
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from tests.conftest import login
from tests.tournament.test_draws_support import make_event
from tournament import roles
from tournament.models import EventRole
from tournament.staff.services import add_creator

REMINDER = re.compile(r'<form[^>]*id="publish-reminder".*?</form>', re.S)


def _reminder(client, url):
    answer = client.get(url)
    assert answer.status_code == 200, url
    found = REMINDER.search(answer.content.decode())
    return found.group(0) if found else None


@pytest.mark.django_db
def test_every_organiser_page_of_an_unpublished_event_offers_to_publish_it(client, make_user):
    organiser = make_user(roles.ORGANISER)
    event = make_event(4, 2, published=False)
    add_creator(event, organiser)
    client.force_login(organiser)
    for name in ("entries_list", "entries_links", "competition_manage_stages", "competition_manage_schedule",
                 "clock-settings", "event_rule_choices", "event_staff", "printouts"):
        form = _reminder(client, reverse(name, args=[event.slug]))
        assert form and "观众还打不开" in form and 'name="published" value="1"' in form, name
        assert f'action="{reverse("event_publish", args=[event.slug])}"' in form, name
    public = _reminder(client, event.get_absolute_url())
    assert public and "尚未公开" in public and "发布赛事" in public
    assert client.get(reverse("competition_schedule", args=[event.slug])).content.decode().count("尚未公开") == 1

    client.post(reverse("event_publish", args=[event.slug]), {"published": "1"})
    event.refresh_from_db()
    assert event.published
    for url in (reverse("entries_list", args=[event.slug]), event.get_absolute_url()):
        assert _reminder(client, url) is None, url


@pytest.mark.django_db
def test_staff_who_may_not_publish_are_told_without_a_button(client, make_user):
    chief = make_user()
    event = make_event(4, 2, published=False)
    EventRole.objects.create(event=event, user=chief, role=EventRole.Role.CHIEF_REFEREE)
    client.force_login(chief)
    public = _reminder(client, event.get_absolute_url())
    assert public and "尚未公开" in public and "发布赛事" not in public


@pytest.mark.browser
def test_the_reminder_on_a_phone(transactional_db, live_server, page, make_user):
    organiser = make_user(roles.ORGANISER)
    event = make_event(4, 2, published=False, slug="unpublished")
    add_creator(event, organiser)
    page.set_viewport_size({"width": 390, "height": 844})
    login(page, live_server, organiser)
    page.goto(live_server.url + reverse("entries_list", args=[event.slug]))
    reminder = page.locator("#publish-reminder")
    reminder.wait_for()
    folder = Path(settings.VAR_DIR) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / "publish-reminder-entries-phone.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.goto(live_server.url + event.get_absolute_url())
    page.screenshot(path=str(folder / "publish-reminder-public-phone.png"), full_page=True)
    page.locator("#publish-reminder button").click()
    page.get_by_text("赛事已发布").or_(page.locator(".messages")).first.wait_for()
    assert not page.locator("#publish-reminder").count()

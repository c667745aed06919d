"""The home page's card of each event, as a new organiser sees it: the card said only the first day of a
two-day event, and an event not yet published looked the same as a published one to its staff."""
import datetime as dt

import pytest

from scoring.profile_store import latest_profile
from tournament.models import Event, EventRole

pytestmark = pytest.mark.django_db


def test_an_unpublished_two_day_event_card(client, make_user):
    organiser = make_user()
    event = Event.objects.create(slug="two-days", name="两天赛", start_date=dt.date(2026, 12, 12),
                                 end_date=dt.date(2026, 12, 13), venue="文化中心",
                                 profile=latest_profile("shenzhen-community"), published=False)
    EventRole.objects.create(event=event, user=organiser, role=EventRole.Role.ORGANISER)
    client.force_login(organiser)
    page = client.get("/").content.decode()
    assert "2026年12月12日 – 2026年12月13日 · 文化中心" in page
    assert "赛事尚未发布：只有工作人员能看到。" in page
    event.published = True
    event.save()
    assert "赛事尚未发布" not in client.get("/").content.decode()

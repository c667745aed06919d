"""The reads a hall polls survive a crowd behind one address (issue 44 item 3): the round clock and the live
tables are never refused by the per-address anonymous throttle, and a published event's answers are cacheable
public reads (a short max-age for visitors, an ETag); logins, writes and the other anonymous reads stay
throttled."""
import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.tournament.test_clock_fixtures import make_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def throttled(settings):
    """The production rates' shape, small: an anonymous address may make 5 API requests a minute."""
    settings.API_THROTTLE_RATES = {"anon": "5/min", "user": "1200/min", "login": "5/min"}
    cache.clear()


def test_four_hundred_clock_polls_from_one_address_are_all_answered(throttled):
    rnd = make_round()
    client = APIClient(REMOTE_ADDR="10.0.0.7")
    codes = [client.get(f"/api/rounds/{rnd.pk}/clock/").status_code for _ in range(400)]
    assert codes.count(429) == 0 and set(codes) == {200}


def test_the_live_tables_from_one_address_are_all_answered(throttled, client):
    rnd = make_round()
    slug = rnd.stage.event.slug
    codes = [client.get(f"/events/{slug}/live.json?rounds={rnd.pk}").status_code for _ in range(50)]
    assert set(codes) == {200}


def test_other_anonymous_reads_and_logins_stay_throttled(throttled, client):
    rnd = make_round()
    api = APIClient(REMOTE_ADDR="10.0.0.8")
    codes = [api.get(f"/api/events/{rnd.stage.event.slug}/").status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and 429 in codes[5:]
    logins = [client.post("/accounts/login/", {"username": "x", "password": "y"}).status_code for _ in range(8)]
    assert 429 in logins


def test_a_visitors_poll_is_a_public_read_with_an_etag_and_a_staff_poll_is_private(make_user):
    rnd = make_round()
    visitor = APIClient()
    answer = visitor.get(f"/api/rounds/{rnd.pk}/clock/")
    assert answer["Cache-Control"] == "public, max-age=1" and answer["ETag"]
    live = visitor.get(f"/events/{rnd.stage.event.slug}/live.json?rounds={rnd.pk}")
    assert live["Cache-Control"] == "public, max-age=1" and live["ETag"]
    assert visitor.get(f"/events/{rnd.stage.event.slug}/live.json?rounds={rnd.pk}",
                       HTTP_IF_NONE_MATCH=live["ETag"]).status_code == 304

    staff = APIClient()
    staff.force_authenticate(make_user("chief_referee"))
    assert staff.get(f"/api/rounds/{rnd.pk}/clock/")["Cache-Control"] == "private, no-cache"


def test_an_unpublished_events_poll_is_never_public(make_user, client):
    rnd = make_round(published=False)
    chief = make_user("chief_referee")
    client.force_login(chief)
    answer = client.get(f"/api/rounds/{rnd.pk}/clock/")
    assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-cache"
    client.logout()
    assert client.get(f"/api/rounds/{rnd.pk}/clock/").status_code == 404

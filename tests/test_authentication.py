"""Authentication fit for the field (issue #17 item 5): throttles on login and the API, a lockout after
10 failed logins per name and address, Basic authentication that can be off without costing a hash,
and per-event API tokens (hashed, revocable) made by the organiser on the staff page."""
import base64
import datetime as dt
import hashlib
import json
import time
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.urls import reverse

from infra import auth
from scoring.profile_store import latest_profile
from tests.conftest import TEST_PASSWORD
from tournament.models import ApiToken, Event, EventRole
from tournament.staff import tokens


@pytest.fixture(autouse=True)
def _clean_cache(settings):
    settings.LOGIN_FAILURE_LIMIT = 10  # the production default (conftest turns it off elsewhere)
    cache.clear()
    yield
    cache.clear()


def make_event(slug, published=False):
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug=slug, name=slug, start_date=day, end_date=day, published=published,
                                profile=latest_profile("shenzhen-community"))


def basic(username, password):
    raw = f"{username}:{password}".encode()
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(raw).decode()}


def login_post(client, username, password, address="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


# --------------------------------------------------------------------------- lockout
def test_ten_failed_logins_lock_the_name_from_that_address(client, make_user, settings):
    settings.LOGIN_LOCKOUT_SECONDS = 900
    user = make_user()
    for _ in range(10):
        response = login_post(client, user.username, "wrong")
        assert response.status_code == 200 and "_auth_user_id" not in client.session
    with mock.patch.object(ModelBackend, "user_can_authenticate", wraps=lambda u: True) as checked:
        response = login_post(client, user.username, TEST_PASSWORD)
    assert "_auth_user_id" not in client.session
    assert "锁定 15 分钟" in response.content.decode()
    checked.assert_not_called()  # no password was checked while locked
    # another device (address) is not locked
    assert login_post(client, user.username, TEST_PASSWORD, address="10.0.0.2").status_code == 302


def test_nine_failures_then_a_success_clear_the_count(client, make_user):
    user = make_user()
    for _ in range(9):
        login_post(client, user.username, "wrong")
    assert login_post(client, user.username, TEST_PASSWORD).status_code == 302
    client.logout()
    for _ in range(9):
        login_post(client, user.username, "wrong")
    assert login_post(client, user.username, TEST_PASSWORD).status_code == 302


def test_the_lock_ends_after_the_period(client, make_user, settings):
    user = make_user()
    for _ in range(9):
        login_post(client, user.username, "wrong")
    settings.LOGIN_LOCKOUT_SECONDS = 1  # the tenth failure locks for one second
    login_post(client, user.username, "wrong")
    assert login_post(client, user.username, TEST_PASSWORD).status_code == 200
    time.sleep(1.2)
    assert login_post(client, user.username, TEST_PASSWORD).status_code == 302


def test_basic_failures_count_towards_the_lockout(client, make_user, settings):
    settings.API_BASIC_AUTH = True
    user = make_user()
    for _ in range(10):
        client.get("/api/events/", **basic(user.username, "wrong"), REMOTE_ADDR="10.0.0.3")
    response = client.get("/api/events/", **basic(user.username, TEST_PASSWORD), REMOTE_ADDR="10.0.0.3")
    assert response.status_code in (401, 403) and "锁定" in response.json()["detail"]


# --------------------------------------------------------------------------- throttles
def test_login_posts_are_throttled_per_address(client, make_user, settings):
    settings.API_THROTTLE_RATES = {"anon": None, "user": None, "login": "3/min"}
    for _ in range(3):
        assert login_post(client, "nobody", "x").status_code == 200
    with mock.patch.object(ModelBackend, "authenticate") as backend:
        response = login_post(client, "nobody", "x")
    backend.assert_not_called()  # a throttled attempt costs no password hash
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert "尝试登录次数过多" in response.content.decode()
    assert login_post(client, "nobody", "x", address="10.9.9.9").status_code == 200


def test_anonymous_api_requests_are_throttled(client, db, settings):
    settings.API_THROTTLE_RATES = {"anon": "2/min", "user": None, "login": None}
    assert [client.get("/api/events/").status_code for _ in range(2)] == [200, 200]
    response = client.get("/api/events/")
    assert response.status_code == 429 and "Retry-After" in response
    assert response.json()["field"] is None and "限" in response.json()["detail"]


def test_authenticated_api_requests_are_throttled_by_user(client, make_user, settings):
    settings.API_THROTTLE_RATES = {"anon": None, "user": "2/min", "login": None}
    client.force_login(make_user())
    assert [client.get("/api/events/").status_code for _ in range(3)] == [200, 200, 429]


# --------------------------------------------------------------------------- Basic authentication
def test_basic_off_ignores_the_header_without_a_password_hash(client, make_user, settings):
    settings.API_BASIC_AUTH = False
    user = make_user()
    with mock.patch.object(ModelBackend, "authenticate") as backend:
        response = client.post("/api/events/", data="{}", content_type="application/json",
                               **basic(user.username, TEST_PASSWORD))
    assert response.status_code == 401  # anonymous (the header ignored): credentials asked for (issue 29 item 4)
    backend.assert_not_called()


def test_basic_on_authenticates(client, make_user, settings):
    settings.API_BASIC_AUTH = True
    event = make_event("hidden")
    user = make_user()
    EventRole.objects.create(event=event, user=user, role="organiser")
    assert client.get("/api/events/hidden/").status_code == 404
    assert client.get("/api/events/hidden/", **basic(user.username, TEST_PASSWORD)).status_code == 200


@pytest.mark.parametrize("username", ["a\x00b", "\x00"])
def test_a_nul_in_a_basic_username_is_refused_with_a_reason(client, db, settings, username):
    settings.API_BASIC_AUTH = True
    response = client.get("/api/events/", **basic(username, "x"))
    assert response.status_code in (401, 403)
    assert "不允许" in response.json()["detail"]


def test_basic_is_off_by_default_in_production():
    from config import settings as config_settings  # noqa: PLC0415 (reads the module's own default)

    assert config_settings.env_bool("DJANGO_API_BASIC_AUTH", False) is False


# --------------------------------------------------------------------------- API tokens
@pytest.fixture
def staffed(make_user):
    event, other = make_event("tok-a"), make_event("tok-b")
    organiser, referee = make_user(), make_user()
    for ev in (event, other):
        EventRole.objects.create(event=ev, user=organiser, role="organiser")
    EventRole.objects.create(event=event, user=referee, role="table_referee")
    return event, other, organiser, referee


def bearer(key):
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


def test_the_organiser_makes_a_token_on_the_staff_page_shown_once(client, staffed):
    event, _other, organiser, referee = staffed
    client.force_login(organiser)
    response = client.post(reverse("event_token_create", args=[event.slug]),
                           {"name": "3号桌平板", "user": referee.pk})
    assert response.status_code == 200
    page = response.content.decode()
    key = page.split('<code class="token-key">')[1].split("</code>")[0]
    token = ApiToken.objects.get()
    assert key.startswith("trk_") and token.user == referee and token.event == event
    assert token.digest == hashlib.sha256(key.encode()).hexdigest() and key not in token.digest
    assert key not in client.get(reverse("event_staff", args=[event.slug])).content.decode()


@pytest.mark.parametrize("post,field", [({"name": "", "user": "1"}, "name"), ({"name": "x", "user": "abc"}, "user")])
def test_a_bad_token_form_is_refused_with_its_reason(client, staffed, post, field):
    event, _other, organiser, _referee = staffed
    client.force_login(organiser)
    response = client.post(reverse("event_token_create", args=[event.slug]), post)
    assert response.status_code == 200 and 'class="has-error"' in response.content.decode()
    assert not ApiToken.objects.exists()


def test_a_referee_cannot_make_tokens(client, staffed):
    event, _other, _organiser, referee = staffed
    client.force_login(referee)
    response = client.post(reverse("event_token_create", args=[event.slug]), {"name": "x", "user": referee.pk})
    assert response.status_code == 403 and not ApiToken.objects.exists()


def test_a_token_acts_in_its_event_only(client, staffed):
    event, other, organiser, _referee = staffed
    _token, key = tokens.create_token(event, organiser.pk, "results script", by=organiser)
    body = json.dumps({"venue": "新场馆"})
    response = client.patch(f"/api/events/{event.slug}/", data=body, content_type="application/json", **bearer(key))
    assert response.status_code == 200, response.content  # no CSRF token needed, no session
    event.refresh_from_db()
    assert event.venue == "新场馆"
    # the same person is organiser of the other event too, but this token does not reach it
    assert client.get(f"/api/events/{other.slug}/", **bearer(key)).status_code == 404
    response = client.patch(f"/api/events/{other.slug}/", data=body, content_type="application/json", **bearer(key))
    assert response.status_code in (403, 404)
    other.refresh_from_db()
    assert other.venue != "新场馆"
    assert client.post("/api/events/", data="{}", content_type="application/json", **bearer(key)).status_code == 403


def test_a_revoked_or_wrong_token_is_refused_with_a_reason(client, staffed):
    event, _other, organiser, _referee = staffed
    token, key = tokens.create_token(event, organiser.pk, "tablet", by=organiser)
    client.force_login(organiser)
    client.post(reverse("event_token_revoke", args=[event.slug, token.pk]))
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == organiser
    client.logout()
    for header in (bearer(key), bearer(key[:-2] + "xx"), bearer("trk_\x01"), {"HTTP_AUTHORIZATION": "Token"}):
        response = client.get(f"/api/events/{event.slug}/", **header)
        assert response.status_code in (401, 403), header
        assert "令牌" in response.json()["detail"]


# --------------------------------------------------------------------------- the client's address (issue 26 item 3)
NGINX = "10.0.0.5"  # the reverse proxy: every request behind it comes from this address


def test_a_client_sent_forwarded_for_is_ignored_by_the_throttles(client, db, settings):
    settings.TRUSTED_PROXY_COUNT = 0  # the default: no proxy in front
    settings.API_THROTTLE_RATES = {"anon": "2/min", "user": None, "login": "2/min"}
    codes = [client.get("/api/events/", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code for i in range(3)]
    assert codes == [200, 200, 429]  # one client, whatever it claims to be
    logins = [login_post(client, "nobody", "x", address="10.0.0.9").status_code
              for _ in range(2)] + [client.post(reverse("login"), {"username": "nobody", "password": "x"},
                                                REMOTE_ADDR="10.0.0.9", HTTP_X_FORWARDED_FOR="203.0.113.77").status_code]
    assert logins == [200, 200, 429]


def test_a_client_sent_forwarded_for_does_not_move_the_lockout(client, make_user, settings):
    settings.TRUSTED_PROXY_COUNT = 0
    user = make_user()
    for i in range(10):
        client.post(reverse("login"), {"username": user.username, "password": "wrong"}, REMOTE_ADDR="10.0.0.1",
                    HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
    response = client.post(reverse("login"), {"username": user.username, "password": TEST_PASSWORD},
                           REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert response.status_code == 200 and "锁定" in response.content.decode()


def _behind_nginx(client, username, password, real, sent=None):
    """A login through nginx (``proxy_add_x_forwarded_for``): the client's own header, then its real address."""
    forwarded = f"{sent}, {real}" if sent else real
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=NGINX,
                       HTTP_X_FORWARDED_FOR=forwarded)


def test_behind_the_trusted_proxy_a_stranger_cannot_lock_the_referee_out(client, make_user, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    referee = make_user()
    for i in range(12):  # a stranger, changing the header it sends itself
        _behind_nginx(client, referee.username, "wrong", real="203.0.113.9", sent=f"198.51.100.{i}")
    assert "锁定" in _behind_nginx(client, referee.username, TEST_PASSWORD, real="203.0.113.9").content.decode()
    # the referee's phone has its own address: in at once
    assert _behind_nginx(client, referee.username, TEST_PASSWORD, real="192.0.2.44").status_code == 302


def test_behind_the_trusted_proxy_the_throttles_count_each_real_client(client, db, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.API_THROTTLE_RATES = {"anon": "2/min", "user": None, "login": None}

    def get(real, sent=None):
        forwarded = f"{sent}, {real}" if sent else real
        return client.get("/api/events/", REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR=forwarded).status_code

    assert [get("203.0.113.9", sent=f"198.51.100.{i}") for i in range(3)] == [200, 200, 429]
    assert get("192.0.2.44") == 200  # another client behind the same proxy


def test_the_proxy_setting_is_drfs_too():
    assert django_settings.REST_FRAMEWORK["NUM_PROXIES"] == django_settings.TRUSTED_PROXY_COUNT == 0


def test_an_unlock_lets_the_owner_in_from_the_locked_address(client, make_user):
    user = make_user()
    for _ in range(10):
        login_post(client, user.username, "wrong", address="10.0.0.7")
        login_post(client, user.username, "wrong", address="10.0.0.8")
    assert auth.locked_names([user.username, "someone"]) == {user.username}
    auth.unlock(user.username)
    assert auth.locked_names([user.username]) == set()
    assert login_post(client, user.username, TEST_PASSWORD, address="10.0.0.7").status_code == 302
    client.logout()
    assert login_post(client, user.username, TEST_PASSWORD, address="10.0.0.8").status_code == 302

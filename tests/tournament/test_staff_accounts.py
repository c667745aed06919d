"""Accounts stay with their owners (issue 26, item 1): an organiser adding an existing login name to their event
changes nothing of the account (password, name, flags), from the API and from the staff page; a new person's
password is a one-time password that the first login replaces before anything else (pages and API); a
password is reset only for an account of the event; a locked login is unlocked from the staff page."""
import base64
import datetime as dt
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.urls import reverse

from infra import auth
from scoring.profile_store import latest_profile
from tests.conftest import TEST_PASSWORD
from tests.rulings.conftest import _fast_passwords  # noqa: F401  (autouse: a cheap hasher)
from tournament.models import Event, EventRole, StaffAccount
from tournament.staff import services
from tournament.staff.passwords import has_one_time_password, password_set_by_owner

NEW_PASSWORD = "Hongtao-K-2026!"  # passes Django's validators


def make_event(slug):
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug=slug, name=slug, start_date=day, end_date=day,
                                profile=latest_profile("shenzhen-community"))


@pytest.fixture
def world(make_user):
    """Event A with its organiser (the hostile one), and accounts A's organiser must not take over."""
    a, b = make_event("evt-a"), make_event("evt-b")
    organiser = make_user()
    EventRole.objects.create(event=a, user=organiser, role="organiser")
    other_organiser = make_user(first_name="别家主办")
    EventRole.objects.create(event=b, user=other_organiser, role="organiser")
    site_organiser = make_user(first_name="站点主办")
    site_organiser.user_permissions.add(Permission.objects.get(content_type__app_label="tournament",
                                                               codename="add_event"))
    victims = {
        "superuser": get_user_model().objects.create_superuser("root", password=TEST_PASSWORD),
        "admin staff": make_user(is_staff=True),
        "other event's organiser": other_organiser,
        "site organiser": site_organiser,
        "no role": make_user(),
    }
    return a, organiser, victims


def _snapshot(user):
    user = type(user).objects.get(pk=user.pk)
    return (user.password, user.first_name, user.last_name, user.is_staff, user.is_superuser, user.is_active,
            set(user.user_permissions.values_list("codename", flat=True)))


def _api_post(client, slug, body):
    return client.post(f"/api/events/{slug}/staff/", data=json.dumps(body), content_type="application/json")


@pytest.mark.parametrize("who", ["superuser", "admin staff", "other event's organiser", "site organiser", "no role"])
def test_the_api_never_sets_an_existing_accounts_password(client, world, who):
    event, organiser, victims = world
    victim = victims[who]
    before = _snapshot(victim)
    client.force_login(organiser)
    response = _api_post(client, event.slug, {"username": victim.username, "password": "taken-over-1",
                                              "display_name": "被改名", "role": "table_referee"})
    assert response.status_code == 400, response.content
    assert response.json()["field"] == ("username" if who == "superuser" else "password")
    assert _snapshot(victim) == before
    victim.refresh_from_db()
    assert victim.check_password(TEST_PASSWORD) and not victim.check_password("taken-over-1")
    assert not has_one_time_password(victim)


@pytest.mark.parametrize("who", ["superuser", "admin staff", "other event's organiser", "site organiser", "no role"])
def test_the_staff_form_never_sets_an_existing_accounts_password(client, world, who):
    event, organiser, victims = world
    victim = victims[who]
    before = _snapshot(victim)
    client.force_login(organiser)
    page = client.post(reverse("event_staff", args=[event.slug]), {
        "role": "chief_referee", "username": victim.username, "display_name": "被改名", "password": "taken-over-1"})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="has-error"' in html
    assert ("既有账号" in html) if who != "superuser" else ("网站管理员" in html)
    assert _snapshot(victim) == before
    assert not EventRole.objects.filter(event=event, user=victim).exists()


def test_an_existing_account_gets_the_role_and_nothing_else(client, world):
    event, organiser, victims = world
    victim = victims["no role"]
    get_user_model().objects.filter(pk=victim.pk).update(first_name="")  # not even an empty name is filled in
    before = _snapshot(victim)
    client.force_login(organiser)
    response = _api_post(client, event.slug, {"username": victim.username, "display_name": "新名字",
                                              "role": "table_referee"})
    assert response.status_code == 201 and "password" not in response.json()
    assert _snapshot(victim) == before
    assert EventRole.objects.filter(event=event, user=victim, role="table_referee").exists()
    # and the organiser cannot give it a password afterwards either: it was not made for this event
    reset = client.post(reverse("event_staff_reset", args=[event.slug, victim.pk]), follow=True)
    assert "只有本人或网站管理员" in reset.content.decode()
    assert _snapshot(victim) == before
    assert reverse("event_staff_reset", args=[event.slug, victim.pk]) not in client.get(
        reverse("event_staff", args=[event.slug])).content.decode()


def test_a_site_organiser_added_to_an_event_keeps_their_password_from_a_reset(world):
    event, _organiser, victims = world
    for who in ("site organiser", "admin staff", "other event's organiser"):
        victim = victims[who]
        services.add_staff(event, "table_referee", username=victim.username)
        before = _snapshot(victim)
        with pytest.raises(services.ForbiddenError):
            services.reset_password(event, victim.pk)
        assert _snapshot(victim) == before


def test_an_account_made_for_the_event_gets_a_new_one_time_password(client, world):
    event, organiser, _victims = world
    row, first = services.add_staff(event, "table_referee", display="周裁判")
    client.force_login(organiser)
    page = client.post(reverse("event_staff_reset", args=[event.slug, row.user_id]))
    assert page.status_code == 200
    password = page.content.decode().split('<strong class="password">')[1].split("</strong>")[0]
    user = row.user
    user.refresh_from_db()
    assert password != first and user.check_password(password) and has_one_time_password(user)
    assert StaffAccount.objects.get(user=user).made_for == event


# --------------------------------------------------------------------------- one-time passwords
def _login(client, username, password, next_url=""):
    data = {"username": username, "password": password}
    if next_url:
        data["next"] = next_url
    return client.post(reverse("login"), data)


def test_the_first_login_with_a_one_time_password_sets_a_new_one_before_anything_else(client, world):
    event, _organiser, _victims = world
    row, one_time = services.add_staff(event, "chief_referee", display="钱裁判长")
    user = row.user
    staff_api = f"/api/events/{event.slug}/staff/"
    manage = reverse("event_staff", args=[event.slug])

    response = _login(client, user.username, one_time, next_url=manage)
    assert response.status_code == 302 and response["Location"] == reverse("first_password")
    assert "_auth_user_id" not in client.session  # not logged in yet
    assert client.get(manage).status_code == 302  # pages: to the login page...
    assert client.get(reverse("login"))["Location"] == reverse("first_password")  # ...which sends it on
    assert client.get(f"/api/events/{event.slug}/").status_code == 404  # the API: anonymous (unpublished)

    page = client.get(reverse("first_password"))
    html = page.content.decode()
    assert page.status_code == 200 and "设置新密码" in html and '<html lang="zh-hans">' in html
    # Django's validators, in Chinese; the one-time password itself is refused
    for new1, new2, words in [("abc", "abc", "太短"), ("12345678901", "12345678901", "只包含数字"),
                              (NEW_PASSWORD, NEW_PASSWORD + "x", "不一致"), (one_time, one_time, "一次性密码")]:
        refused = client.post(reverse("first_password"), {"new_password1": new1, "new_password2": new2})
        assert refused.status_code == 200 and words in refused.content.decode(), words
        assert "_auth_user_id" not in client.session
    done = client.post(reverse("first_password"), {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert done.status_code == 302 and done["Location"] == manage
    assert int(client.session["_auth_user_id"]) == user.pk
    user.refresh_from_db()
    assert not has_one_time_password(user) and user.check_password(NEW_PASSWORD)
    assert client.get(staff_api).status_code == 403  # logged in (a chief, not an organiser): refused by role

    client.logout()
    assert _login(client, user.username, one_time).status_code == 200  # the one-time password is gone
    assert _login(client, user.username, NEW_PASSWORD)["Location"] == reverse("home")  # straight in


def test_a_session_of_an_account_with_a_one_time_password_is_anonymous(client, world):
    event, organiser, _victims = world
    row, _password = services.add_staff(event, "organiser", display="孙主办")
    client.force_login(row.user)  # however the session came about
    assert client.get(reverse("event_staff", args=[event.slug])).status_code == 302
    response = client.post("/api/events/", data="{}", content_type="application/json")
    assert response.status_code == 401  # anonymous: credentials asked for (issue 29 item 4)
    assert not client.login(username=row.user.username, password=_password)  # only the login page takes it


def test_basic_authentication_refuses_a_one_time_password_with_its_reason(client, world, settings):
    settings.API_BASIC_AUTH = True
    event, _organiser, _victims = world
    row, password = services.add_staff(event, "organiser", display="郑主办")
    header = "Basic " + base64.b64encode(f"{row.user.username}:{password}".encode()).decode()
    response = client.get(f"/api/events/{event.slug}/", HTTP_AUTHORIZATION=header)
    assert response.status_code in (401, 403) and "一次性密码" in response.json()["detail"]


def test_an_organiser_account_from_the_site_page_starts_with_a_one_time_password(client, db):
    user, password = services.create_organiser_account("冯老师")
    assert has_one_time_password(user)
    assert _login(client, user.username, password)["Location"] == reverse("first_password")


def test_the_new_password_page_without_a_one_time_login_goes_to_the_login_page(client, db):
    assert client.get(reverse("first_password"))["Location"] == reverse("login")


# --------------------------------------------------------------------------- unlock from the staff page
def _lock(username, address="10.1.1.1"):
    for _ in range(10):
        auth.record_failure(username, address)
    assert auth.locked(username, address)


def test_the_organiser_unlocks_a_locked_login_on_the_staff_page(client, world, settings):
    settings.LOGIN_FAILURE_LIMIT = 10
    cache.clear()
    event, organiser, victims = world
    row, _one_time = services.add_staff(event, "table_referee", display="吴裁判")
    referee = row.user
    referee.set_password(TEST_PASSWORD)  # the first login set the referee's own password
    referee.save()
    password_set_by_owner(referee)
    for _ in range(10):
        client.post(reverse("login"), {"username": referee.username, "password": "wrong"}, REMOTE_ADDR="10.1.1.1")
    assert auth.locked(referee.username, "10.1.1.1")
    client.force_login(referee)
    unlock = reverse("event_staff_unlock", args=[event.slug, referee.pk])
    assert client.post(unlock).status_code == 403  # a referee may not
    client.force_login(organiser)
    page = client.get(reverse("event_staff", args=[event.slug])).content.decode()
    assert "登录已锁定" in page and unlock in page
    done = client.post(unlock, follow=True)
    assert "可以重新登录" in done.content.decode()
    assert not auth.locked(referee.username, "10.1.1.1")
    client.logout()
    assert client.post(reverse("login"), {"username": referee.username, "password": TEST_PASSWORD},
                       REMOTE_ADDR="10.1.1.1").status_code == 302
    cache.clear()


def test_an_organiser_cannot_lift_the_lock_of_somebody_elses_account(client, world, settings):
    """A site organiser added to the event: its lockout is nobody's at this event to lift (an organiser who
    could would try its password again and again); it still logs in from its own device."""
    settings.LOGIN_FAILURE_LIMIT = 10
    cache.clear()
    event, organiser, victims = world
    victim = victims["site organiser"]
    services.add_staff(event, "table_referee", username=victim.username)
    _lock(victim.username)
    client.force_login(organiser)
    unlock = reverse("event_staff_unlock", args=[event.slug, victim.pk])
    page = client.get(reverse("event_staff", args=[event.slug])).content.decode()
    assert "登录已锁定" in page and unlock not in page
    refused = client.post(unlock, follow=True)
    assert "只有网站管理员" in refused.content.decode()
    assert auth.locked(victim.username, "10.1.1.1")
    client.post(reverse("event_staff_unlock", args=[event.slug, victims["no role"].pk]))  # not on the staff
    assert auth.locked(victim.username, "10.1.1.1")
    client.force_login(victims["superuser"])  # a site administrator may
    client.post(unlock)
    assert not auth.locked(victim.username, "10.1.1.1")
    cache.clear()

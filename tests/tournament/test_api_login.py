"""#46 item 8: a program's first token without scraping the login form. ``POST /api/login/`` takes a login
name and password with the login page's throttle and lockout, refuses an account with a one-time password,
and answers a site-wide organiser token for an account that may create events, else an event's token for
the event named where the account holds a role; the schema describes it."""
import json

import pytest
from django.core.cache import cache
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from tests.tournament.test_clock_fixtures import make_round
from tournament.models import ApiToken
from tournament.staff.passwords import password_set_by_owner
from tournament.staff.services import add_staff, create_organiser_account

NEW = {"name": "2026 区职工拖拉机赛", "start_date": "2026-12-05", "end_date": "2026-12-06", "venue": "区文化宫",
       "profile": "union-games", "format": "round_robin", "organising_body": "区总工会"}


def log_in(client, **body):
    return client.post("/api/login/", json.dumps(body), content_type="application/json")


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def organiser(db):
    user, _password = create_organiser_account("王主任", password="organiser-pw-1")
    password_set_by_owner(user)
    return user


@pytest.fixture
def referee(db):
    rnd = make_round()
    role, _password = add_staff(rnd.stage.event, "table_referee", display="李裁判", password="referee-pw-1")
    password_set_by_owner(role.user)
    return role.user, rnd.stage.event


def test_an_organiser_gets_a_site_wide_token_that_creates_events(organiser):
    client = Client()
    made = log_in(client, username=organiser.username, password="organiser-pw-1", name="报名导入程序")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["event"] is None and body["user_id"] == organiser.pk and body["key"].startswith("trk_")
    assert made["Cache-Control"] == "no-store"
    created = client.post("/api/events/", json.dumps(NEW), content_type="application/json",
                          HTTP_AUTHORIZATION=f"Bearer {body['key']}")
    assert created.status_code == 201, created.content


def test_a_referee_gets_a_token_of_the_event_named_only(referee):
    user, event = referee
    client = Client()
    made = log_in(client, username=user.username, password="referee-pw-1", name="3号桌平板", event=event.slug)
    assert made.status_code == 201, made.content
    assert made.json()["event"] == event.slug
    assert ApiToken.objects.get(pk=made.json()["id"]).event == event
    no_event = log_in(client, username=user.username, password="referee-pw-1", name="x")
    assert no_event.status_code == 403 and no_event.json()["code"] == "forbidden"
    other = make_round()
    elsewhere = log_in(client, username=user.username, password="referee-pw-1", name="x", event=other.stage.event.slug)
    unknown = log_in(client, username=user.username, password="referee-pw-1", name="x", event="no-such-event")
    assert elsewhere.status_code == unknown.status_code == 403
    assert elsewhere.json()["detail"] == unknown.json()["detail"]   # nothing told about events not one's own
    assert ApiToken.objects.count() == 1


def test_wrong_passwords_lock_the_name_as_on_the_login_page(referee, settings):
    settings.LOGIN_FAILURE_LIMIT = 3
    user, event = referee
    client = Client()
    for _ in range(3):
        wrong = log_in(client, username=user.username, password="wrong", name="x", event=event.slug)
        assert wrong.status_code == 401 and wrong.json()["code"] == "authentication_failed"
        assert wrong.json()["detail"] == "登录名或密码不对。"
    locked = log_in(client, username=user.username, password="referee-pw-1", name="x", event=event.slug)
    assert locked.status_code == 401 and "锁定" in locked.json()["detail"]
    assert not ApiToken.objects.exists()


def test_a_one_time_password_is_refused_with_its_reason(db):
    rnd = make_round()
    role, password = add_staff(rnd.stage.event, "table_referee", display="张裁判")
    refused = log_in(Client(), username=role.user.username, password=password, name="x", event=rnd.stage.event.slug)
    assert refused.status_code == 401 and "一次性密码" in refused.json()["detail"]
    assert not ApiToken.objects.exists()


def test_logins_are_throttled_per_address(organiser, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "login": "2/min"}
    client = Client()
    answers = [log_in(client, username=organiser.username, password="wrong", name="x").status_code for _ in range(3)]
    assert answers == [401, 401, 429]


def test_the_schema_describes_the_login():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    operation = schema["paths"]["/api/login/"]["post"]
    assert operation["operationId"] == "login_token_create" and "security" not in operation
    assert {"201", "400", "401", "403", "429"} <= set(operation["responses"])
    body = schema["components"]["schemas"][operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                                           .rsplit("/", 1)[-1]]
    assert set(body["required"]) == {"username", "password", "name"} and "event" in body["properties"]

"""#46 item 3: an Idempotency-Key's answer is kept only for an authenticated writer, in that writer's own
namespace. Anonymous writes (or writes with failing credentials) once claimed their key before DRF
authenticated them: 500 anonymous POSTs stored 500 answers, unthrottled, in one namespace shared by every
anonymous client. Now they store nothing and are throttled by address before anything runs."""
import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from infra.models import IdempotencyRecord
from tests.conftest import reads_of
from tournament.models import ApiToken
from tournament.staff import tokens
from tournament.staff.passwords import password_set_by_owner
from tournament.staff.services import create_organiser_account

NEW = {"name": "2026 区职工拖拉机赛", "start_date": "2026-12-05", "end_date": "2026-12-06", "venue": "区文化宫",
       "profile": "union-games", "format": "round_robin", "organising_body": "区总工会"}


def create_event(client, key, authorization=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key}
    if authorization:
        headers["HTTP_AUTHORIZATION"] = authorization
    return client.post("/api/events/", json.dumps(NEW), content_type="application/json", **headers)


@pytest.fixture
def organiser(db):
    user, _password = create_organiser_account("王主任")
    password_set_by_owner(user)
    return user


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()
    yield
    cache.clear()


def test_anonymous_writes_with_a_key_store_nothing_and_are_throttled(db, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "anon": "5/min"}
    client = Client()
    answers = [create_event(client, f"anon-{n}").status_code for n in range(8)]
    assert answers == [401] * 5 + [429] * 3
    assert not IdempotencyRecord.objects.exists()
    throttled = create_event(client, "anon-9")
    assert throttled.json()["code"] == "throttled" and int(throttled["Retry-After"]) >= 1


def test_failing_credentials_with_a_key_are_refused_before_anything_is_stored(db, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "anon": "3/min"}
    client = Client()
    wrong = create_event(client, "k", authorization="Bearer trk_not-a-token")
    assert wrong.status_code == 401 and wrong.json()["code"] == "authentication_failed"
    assert wrong["WWW-Authenticate"].startswith("Bearer")
    assert [create_event(client, f"k{n}", authorization="Bearer trk_x").status_code for n in range(3)] == [
        401, 401, 429]
    assert not IdempotencyRecord.objects.exists()


def test_a_token_writer_keeps_its_answer_in_its_own_namespace(organiser, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "anon": "1/min"}
    token, key = tokens.create_token(None, organiser.pk, "导入程序", by=organiser)
    _other, other_key = tokens.create_token(None, organiser.pk, "另一个程序", by=organiser)
    client = Client()
    first = create_event(client, "same", authorization=f"Bearer {key}")
    again = create_event(client, "same", authorization=f"Token {key}")   # the same token, the other keyword
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replay"] == "true"
    assert again.json()["slug"] == first.json()["slug"]
    # another token of the same person, and the person's session, are writers of their own: they run
    by_other = create_event(client, "same", authorization=f"Bearer {other_key}")
    assert by_other.status_code == 201 and "Idempotent-Replay" not in by_other
    session = Client()
    session.force_login(organiser)
    by_session = create_event(session, "same")
    assert by_session.status_code == 201 and by_session.json()["slug"] not in {first.json()["slug"],
                                                                               by_other.json()["slug"]}
    assert sorted(IdempotencyRecord.objects.values_list("owner", flat=True)) == sorted(
        [f"apitoken:{token.pk}", f"apitoken:{_other.pk}", str(organiser.pk)])
    # authenticated writers are never counted by the anonymous writers' throttle
    assert create_event(client, "more", authorization=f"Bearer {key}").status_code == 201


def test_a_keyed_write_looks_its_token_up_once(organiser):
    """The key's owner is found before the view; DRF is answered the same (``infra.auth.CheckedOnce``), not by
    a second lookup (the token's class once answered it by its own ``authenticate``, looking it up again)."""
    _token, key = tokens.create_token(None, organiser.pk, "导入程序", by=organiser)
    with CaptureQueriesContext(connection) as queries:
        made = create_event(Client(), "once", authorization=f"Bearer {key}")
    assert made.status_code == 201
    assert reads_of(ApiToken, queries) == 1

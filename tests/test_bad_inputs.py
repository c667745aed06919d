"""Every hostile input of issue #17 item 6 answers a 4xx with a reason in Chinese, never a 500; unknown API
paths answer JSON 404; a lost database answers 503 with Retry-After (JSON under /api/)."""
import datetime as dt
import json
from unittest import mock

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError
from django.db.backends.utils import CursorWrapper
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from demo.hands import scratch_match
from infra.models import IdempotencyRecord
from rulings import appeals, services
from scoring.engine import LastTrick
from scoring.profile_store import latest_profile
from tests.scoring.test_hands_support import hand_body
from tournament import roles
from tournament.entries import pairs as entry_pairs
from tournament.entries import services as entries
from tournament.models import Event

CHINESE = range(0x4E00, 0xA000)


def chinese(text):
    return any(ord(c) in CHINESE for c in text)


def assert_refused(response, statuses=(400,)):
    assert response.status_code in statuses, (response.status_code, response.content[:300])
    if response["Content-Type"].startswith("application/json"):
        body = response.json()
        assert set(body) >= {"field", "detail"}, body
        assert chinese(body["detail"]), body
    else:
        assert chinese(response.content.decode()), response.content[:300]


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def table(db, make_user, frozen_now):
    referee, chief = make_user(roles.TABLE_REFEREE), make_user(roles.CHIEF_REFEREE)
    match = scratch_match(referees=[referee])
    return match, referee, chief


def raw_post(client, path, raw):
    return client.post(path, data=raw, content_type="application/json")


# --------------------------------------------------------------------------- JSON bodies
def deep(levels):
    return "[" * levels + "]" * levels


HAND_BODIES = {
    "array": "[1, 2]",
    "string": '"hello"',
    "null": "null",
    "number": "3",
    "nested 1,000 deep": deep(1000),
    "nested 100,000 deep": deep(100_000),
    "object nested 40 deep": '{"a":' * 40 + "1" + "}" * 40,
    "NUL in a key": json.dumps({"number\u0000": 1, "trump": "H"}),
    "NUL in a value": json.dumps({"number": 1, "trump": "H\u0000"}),
    "NaN": '{"number": NaN}',
    "not JSON": "{number: 1",
    "pairs unbounded": json.dumps(hand_body(1, 0, declarer="N", last_trick={
        "by": "defenders", "shape": "tractor", "pairs": 10**30})),
    "pairs past the cap": json.dumps(hand_body(1, 0, declarer="N", last_trick={
        "by": "defenders", "shape": "tractor", "pairs": 28})),
    "points of 20 digits": json.dumps(hand_body(1, 10**20, declarer="N")),
}


@pytest.mark.parametrize("body", HAND_BODIES.values(), ids=HAND_BODIES.keys())
def test_bad_bodies_to_the_hand_correction_are_refused(client, table, body):
    match, referee, _chief = table
    client.force_login(referee)
    assert_refused(raw_post(client, f"/api/matches/{match.pk}/hands/1/correct/", body))
    assert_refused(raw_post(client, f"/api/matches/{match.pk}/hands/", body))
    assert not match.hands.exists()


def test_a_hand_number_of_20_digits_in_the_address_is_refused(client, table):
    match, referee, _chief = table
    client.force_login(referee)
    response = raw_post(client, f"/api/matches/{match.pk}/hands/{10**20}/correct/", json.dumps(hand_body(1, 0)))
    assert_refused(response, (400, 404))


def test_pairs_past_the_cap_are_refused_by_the_engine_too():
    with pytest.raises(UserError) as caught:
        LastTrick("defenders", "tractor", pairs=10**9)
    assert caught.value.field == "last_trick.pairs"


@pytest.fixture
def appeal(table):
    match, referee, chief = table
    ruling = services.record_ruling(match, referee, "failed_throw", "NS", cards=2, role="declarers")
    return appeals.file_appeal(ruling, chief, "NS", "不是甩牌"), chief


@pytest.mark.parametrize("body", ["[]", '["uphold"]', "null", '"uphold"', deep(1000),
                                  json.dumps({"instance\u0000": 1})],
                         ids=["empty array", "array", "null", "string", "deep", "NUL key"])
def test_bad_bodies_to_appeal_decisions_are_refused(client, appeal, body):
    row, chief = appeal
    client.force_login(chief)
    assert_refused(raw_post(client, f"/api/appeals/{row.pk}/decisions/", body))
    row.refresh_from_db()
    assert not row.decisions.exists() if hasattr(row, "decisions") else True


def test_a_body_past_the_json_limit_is_413(client, table, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    match, referee, _chief = table
    client.force_login(referee)
    body = json.dumps({**hand_body(1, 0, declarer="N"), "padding": "x" * 2000})
    assert_refused(raw_post(client, f"/api/matches/{match.pk}/hands/", body), (413,))


def test_a_request_past_the_body_limit_is_413_before_reading(client, db, settings):
    settings.MAX_REQUEST_BYTES = settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = client.post("/api/events/", data="x" * 2000, content_type="application/json")
    assert_refused(response, (413,))
    page = client.post(reverse("login"), data={"username": "x" * 2000, "password": "y"})
    assert_refused(page, (413,))


# --------------------------------------------------------------------------- seeds and ids
@pytest.fixture
def organiser_event(client, make_user):
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug="bad", name="bad", start_date=day, end_date=day, published=True,
                                 profile=latest_profile("shenzhen-community"))
    client.force_login(make_user(roles.ORGANISER))
    return event


ENTRY = {"unit": "甲", "name": "甲一队", "player1": {"name": "张三", "gender": "M"},
         "player2": {"name": "李四", "gender": "F"}}


@pytest.mark.parametrize("seed", [3e9, 3000000000, "²", "1" * 20, 10**20, -1, 0, 10_000])
def test_bad_entry_seeds_are_refused_by_the_api(client, organiser_event, seed):
    response = raw_post(client, f"/api/events/{organiser_event.slug}/entries/", json.dumps({**ENTRY, "seed": seed}))
    assert_refused(response)
    assert response.json()["field"] == "seed"
    assert not organiser_event.pairs.exists()


@pytest.mark.parametrize("seed", ["3e9", "3000000000", "²", "1" * 20])
def test_bad_entry_seeds_are_refused_by_the_form_and_the_import(client, organiser_event, seed):
    post = {"unit": "甲", "name": "甲一队", "player1": "张三", "gender1": "M", "phone1": "",
            "player2": "李四", "gender2": "F", "phone2": "", "seed": seed, "team": ""}
    response = client.post(reverse("entries_add", args=[organiser_event.slug]), post)
    assert response.status_code == 200  # the form again, with its error (a saved pair would redirect)
    assert not organiser_event.pairs.exists()
    header = "单位,对名,选手1,性别1,选手2,性别2,种子\n"
    raw = (header + f"甲,甲一队,张三,男,李四,女,{seed}\n").encode()
    response = client.post(reverse("entries_import", args=[organiser_event.slug]),
                           {"file": SimpleUploadedFile("e.csv", raw)})
    assert response.status_code == 200 and "种子" in response.content.decode()
    assert not organiser_event.pairs.exists()


def test_the_service_refuses_a_seed_past_the_cap(organiser_event):
    data = entries.PairData("甲", entries.PlayerData("张三", "M"), entries.PlayerData("李四", "F"), seed=3_000_000_000)
    with pytest.raises(entries.EntryError) as caught:
        entry_pairs.add_pair(organiser_event, data)
    assert caught.value.field == "seed" and chinese(str(caught.value))


@pytest.mark.parametrize("value", ["abc", "²", "1" * 20, "-1", "1.5", "\x00"])
def test_non_numeric_ids_in_organiser_forms_are_not_500(client, organiser_event, value):
    slug = organiser_event.slug
    checks = [
        client.post(reverse("entries_individuals", args=[slug]), {"action": "withdraw", "registration": value}),
        client.get(reverse("competition_referee_grid", args=[slug]), {"stage": value}),
        client.post(reverse("competition_referee_grid", args=[slug]), {"stage": value, f"cell_{value}": value}),
        client.get(reverse("clock-settings", args=[slug]), {"round": value}),
    ]
    for response in checks:
        assert response.status_code < 500, response.status_code


# --------------------------------------------------------------------------- API errors are JSON
@pytest.mark.parametrize("path", ["/api/nope/", "/api/nope", "/api/events/no-such-event/", "/api/matches/abc/state/"])
def test_unknown_api_paths_answer_json_404(client, db, path):
    response = client.get(path)
    assert response.status_code == 404 and response["Content-Type"].startswith("application/json")
    assert chinese(response.json()["detail"])


def _broken_execute(self, sql, params=None):
    raise OperationalError("server closed the connection unexpectedly")


def test_a_lost_database_answers_json_503_with_retry_after_under_api(client, db):
    with mock.patch.object(CursorWrapper, "execute", _broken_execute):
        response = client.get("/api/events/")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert response["Content-Type"].startswith("application/json") and chinese(response.json()["detail"])


def test_a_lost_database_answers_a_friendly_503_page(client, db):
    with mock.patch.object(CursorWrapper, "execute", _broken_execute):
        response = client.get("/")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert "text/html" in response["Content-Type"] and chinese(response.content.decode())


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_operation_without_its_final_slash_is_sent_on_with_its_method(client, db, method):
    response = getattr(client, method)("/api/events?page=2")
    assert response.status_code == 308 and response["Location"] == "/api/events/?page=2"


def test_a_database_lost_inside_a_middleware_answers_503_not_500(db, make_user):
    """The idempotency middleware claims the key before the view runs: a connection dropped there is raised
    outside every view (no process_exception sees it) and still answers 503 with Retry-After (issue 44 item 5)."""
    client = Client(raise_request_exception=False)
    client.force_login(make_user(roles.ORGANISER))
    with mock.patch.object(IdempotencyRecord, "save", side_effect=OperationalError("server closed the connection")):
        response = client.post("/api/events/", {}, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert response.status_code == 503 and int(response["Retry-After"]) > 0
    assert response.json()["code"] == "unavailable" and chinese(response.json()["detail"])

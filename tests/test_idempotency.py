"""The Idempotency-Key middleware applies a retried API request once."""
import json

import pytest
from django.http import JsonResponse
from django.test import RequestFactory

from infra.idempotency import IdempotencyKeyMiddleware


@pytest.fixture
def counting_view():
    calls = []

    def view(request):
        calls.append(request.body)
        status = 500 if request.body == b"boom" else 201
        return JsonResponse({"n": len(calls)}, status=status)

    view.calls = calls
    return view


@pytest.fixture(autouse=True)
def writer(request):
    """The authenticated writer of the requests ``post`` makes (only a writer's keys are kept)."""
    if "django_db" not in request.keywords:
        yield None
        return
    from django.contrib.auth.models import User

    WRITER[:] = [User.objects.create_user("writer")]
    yield WRITER[0]
    WRITER[:] = []


WRITER = []


def post(body, key="k-1", path="/api/things/"):
    from django.contrib.auth.models import AnonymousUser

    request = RequestFactory().post(path, data=body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    request.user = WRITER[0] if WRITER else AnonymousUser()
    return request


@pytest.mark.django_db
def test_retry_is_applied_once(counting_view):
    middleware = IdempotencyKeyMiddleware(counting_view)
    first = middleware(post(b'{"a": 1}'))
    second = middleware(post(b'{"a": 1}'))
    assert len(counting_view.calls) == 1
    assert first.status_code == second.status_code == 201
    assert json.loads(second.content) == {"n": 1} and second["Idempotent-Replay"] == "true"


@pytest.mark.django_db
def test_same_key_different_request_is_refused(counting_view):
    middleware = IdempotencyKeyMiddleware(counting_view)
    middleware(post(b'{"a": 1}'))
    assert middleware(post(b'{"a": 2}')).status_code == 422
    assert len(counting_view.calls) == 1


@pytest.mark.django_db
def test_server_error_can_be_retried(counting_view):
    middleware = IdempotencyKeyMiddleware(counting_view)
    assert middleware(post(b"boom")).status_code == 500
    assert middleware(post(b"boom")).status_code == 500
    assert len(counting_view.calls) == 2


@pytest.mark.django_db
def test_requests_without_key_or_outside_api_pass_through(counting_view):
    middleware = IdempotencyKeyMiddleware(counting_view)
    middleware(post(b"{}", key=""))
    middleware(post(b"{}", key=""))
    middleware(post(b"{}", path="/events/x/"))
    middleware(post(b"{}", path="/events/x/"))
    assert len(counting_view.calls) == 4


@pytest.mark.django_db
def test_keys_of_different_basic_auth_clients_do_not_mix(counting_view, settings):
    from base64 import b64encode

    from django.contrib.auth.models import AnonymousUser, User

    from tests.conftest import TEST_PASSWORD

    settings.API_BASIC_AUTH = True
    for name in ("a", "c"):
        User.objects.create_user(name, password=TEST_PASSWORD)
    middleware = IdempotencyKeyMiddleware(counting_view)
    first, second, anonymous = post(b"{}"), post(b"{}"), post(b"{}")
    for request, name in ((first, "a"), (second, "c"), (anonymous, None)):
        request.user = AnonymousUser()
        if name:
            request.META["HTTP_AUTHORIZATION"] = "Basic " + b64encode(f"{name}:{TEST_PASSWORD}".encode()).decode()
    assert json.loads(middleware(first).content) == {"n": 1}
    assert json.loads(middleware(second).content) == {"n": 2}  # same key, another client: runs
    assert json.loads(middleware(anonymous).content) == {"n": 3}  # nobody reads another's answer


def record(key, *, status=None, body=b'{"a": 1}', age=None):
    """Store a record for ``key`` as the middleware would, created ``age`` before infra.clock.now()."""
    import datetime as dt
    import hashlib

    from infra import clock
    from infra.models import IdempotencyRecord

    fingerprint = hashlib.sha256(b"POST /api/things/\n" + body).hexdigest()
    return IdempotencyRecord.objects.create(key=key, owner="", method="POST", path="/api/things/",
                                            fingerprint=fingerprint, status=status,
                                            created_at=clock.now() - (age or dt.timedelta()))


@pytest.mark.django_db
def test_a_conflict_answer_is_not_stored_so_the_retry_runs_again():
    answers = iter([409, 201])
    calls = []

    def view(request):
        calls.append(1)
        return JsonResponse({"n": len(calls)}, status=next(answers))

    middleware = IdempotencyKeyMiddleware(view)
    assert middleware(post(b'{"a": 1}')).status_code == 409
    second = middleware(post(b'{"a": 1}'))
    assert (second.status_code, json.loads(second.content), len(calls)) == (201, {"n": 2}, 2)


@pytest.mark.django_db
def test_a_client_error_other_than_409_is_still_replayed():
    calls = []

    def view(request):
        calls.append(1)
        return JsonResponse({"detail": "bad"}, status=400)

    middleware = IdempotencyKeyMiddleware(view)
    middleware(post(b'{"a": 1}'))
    assert middleware(post(b'{"a": 1}'))["Idempotent-Replay"] == "true"
    assert len(calls) == 1


@pytest.mark.django_db
def test_records_older_than_a_day_are_purged_by_the_hourly_task(frozen_now):
    import datetime as dt

    from infra.models import IdempotencyRecord
    from infra.tasks import purge_idempotency_records

    record("old", status=201, age=dt.timedelta(hours=24, seconds=1))
    record("recent", status=201, age=dt.timedelta(hours=23))
    assert purge_idempotency_records() == 1
    assert set(IdempotencyRecord.objects.values_list("key", flat=True)) == {"recent"}
    frozen_now.advance(hours=2)
    assert purge_idempotency_records() == 1 and not IdempotencyRecord.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_write_whose_answer_was_not_stored_is_not_applied_twice(make_user, frozen_now, monkeypatch):
    """Issue 17 item 2: "add 1 minute" was applied twice when the connection dropped between the view's
    commit and the stored answer. The write and its answer commit together: the failed attempt leaves
    nothing (its claim neither), the retry applies the minute once and a second retry replays it."""
    from django.db import OperationalError
    from django.test import Client

    from infra.models import IdempotencyRecord
    from tests.tournament.test_clock_fixtures import make_round
    from tournament import roles
    from tournament.clocks import services as clock_services
    from tournament.models import ClockEvent

    chief = make_user(roles.CHIEF_REFEREE)
    rnd = make_round()
    clock_services.start_clock(rnd, chief)
    client = Client(raise_request_exception=False)
    client.force_login(chief)
    url = f"/api/rounds/{rnd.pk}/clock/actions/"
    body = json.dumps({"action": "add", "minutes": 1})

    def lost_connection(record, response):   # storing the answer fails
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(IdempotencyKeyMiddleware, "store_answer", staticmethod(lost_connection))
    first = client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="add-1")
    assert first.status_code == 503 and int(first["Retry-After"]) > 0     # a lost database: retry (issue 44)
    assert ClockEvent.objects.filter(round=rnd, kind="add").count() == 0     # rolled back with its answer
    monkeypatch.undo()

    assert not IdempotencyRecord.objects.filter(key="add-1").exists()
    retry = client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="add-1")
    again = client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="add-1")
    assert retry.status_code == again.status_code == 200 and again["Idempotent-Replay"] == "true"
    assert [e.seconds for e in ClockEvent.objects.filter(round=rnd, kind="add")] == [60]


@pytest.mark.django_db
def test_a_key_is_its_users_alone(make_user):
    """Issue 25 item 5: the same key sent by two users runs twice, and neither sees the other's answer."""
    calls = []

    def view(request):
        calls.append(request.user.pk)
        return JsonResponse({"by": request.user.pk}, status=201)

    middleware = IdempotencyKeyMiddleware(view)
    first, second = make_user(), make_user()
    answers = []
    for user in (first, second, first):
        request = post(b'{"a": 1}')
        request.user = user
        answers.append(json.loads(middleware(request).content))
    assert calls == [first.pk, second.pk]
    assert answers == [{"by": first.pk}, {"by": second.pk}, {"by": first.pk}]


@pytest.mark.django_db
def test_the_claim_and_the_answer_are_one_record_in_the_requests_transaction(counting_view):
    """The key's record holds the answer when the request commits; an answer asking for a retry leaves none."""
    from infra.models import IdempotencyRecord

    middleware = IdempotencyKeyMiddleware(counting_view)
    middleware(post(b'{"a": 1}', key="kept"))
    middleware(post(b"boom", key="retried"))
    assert list(IdempotencyRecord.objects.values_list("key", "status")) == [("kept", 201)]


def test_the_module_stays_small():
    """Issue 25 item 5: the idempotency module is at most 160 lines."""
    from pathlib import Path

    assert len(Path("infra/idempotency.py").read_text().splitlines()) <= 160

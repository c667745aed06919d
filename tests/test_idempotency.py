"""The Idempotency-Key middleware applies a retried API request once."""
import json

import pytest
from django.http import JsonResponse
from django.test import RequestFactory

from config.idempotency import IdempotencyKeyMiddleware


@pytest.fixture
def counting_view():
    calls = []

    def view(request):
        calls.append(request.body)
        status = 500 if request.body == b"boom" else 201
        return JsonResponse({"n": len(calls)}, status=status)

    view.calls = calls
    return view


def post(body, key="k-1", path="/api/things/"):
    from django.contrib.auth.models import AnonymousUser

    request = RequestFactory().post(path, data=body, content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)
    request.user = AnonymousUser()
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
def test_keys_of_different_basic_auth_clients_do_not_mix(counting_view):
    middleware = IdempotencyKeyMiddleware(counting_view)
    first, second, anonymous = post(b"{}"), post(b"{}"), post(b"{}")
    first.META["HTTP_AUTHORIZATION"] = "Basic YTpi"
    second.META["HTTP_AUTHORIZATION"] = "Basic Yzpk"
    assert json.loads(middleware(first).content) == {"n": 1}
    assert json.loads(middleware(second).content) == {"n": 2}  # same key, another client: runs
    assert json.loads(middleware(anonymous).content) == {"n": 3}  # nobody reads another's answer

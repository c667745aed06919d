"""Issue 17 item 2, the other side: a write that committed with its answer is never run again by a retry,
whatever the client saw (a 500 in place of the answer, a lost connection) and however late it retries."""
import json

import pytest
from django.http import JsonResponse

from config.idempotency import IdempotencyKeyMiddleware
from tests.test_idempotency import post


@pytest.mark.django_db(transaction=True)
def test_a_retry_after_a_committed_write_gets_the_stored_answer_even_after_the_takeover_delay(make_user,
                                                                                            frozen_now):
    from django.test import Client

    from tests.tournament.test_clock_fixtures import make_round
    from tournament import roles
    from tournament.clocks import services as clock_services
    from tournament.models import ClockEvent

    chief = make_user(roles.CHIEF_REFEREE)
    rnd = make_round()
    clock_services.start_clock(rnd, chief)
    client = Client()
    client.force_login(chief)
    url = f"/api/rounds/{rnd.pk}/clock/actions/"
    body = json.dumps({"action": "add", "minutes": 1})
    first = client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="add-1")
    assert first.status_code == 200  # committed with its answer; say the phone never got it

    frozen_now.advance(seconds=61)   # past ABANDONED_AFTER: a record without an answer would be taken over
    retry = client.post(url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="add-1")
    assert retry.status_code == 200 and retry["Idempotent-Replay"] == "true"
    assert retry.content == first.content
    assert [e.seconds for e in ClockEvent.objects.filter(round=rnd, kind="add")] == [60]   # applied once


@pytest.mark.django_db
def test_too_many_requests_is_not_stored_so_the_same_key_runs_later():
    answers = iter([429, 201])
    calls = []

    def view(request):
        calls.append(1)
        return JsonResponse({"n": len(calls)}, status=next(answers))

    middleware = IdempotencyKeyMiddleware(view)
    assert middleware(post(b'{"a": 1}')).status_code == 429
    second = middleware(post(b'{"a": 1}'))
    assert (second.status_code, json.loads(second.content), len(calls)) == (201, {"n": 2}, 2)

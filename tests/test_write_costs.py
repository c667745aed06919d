"""What a hand or a ruling POST costs once the match's state is kept (issue 15 item 1; the plain path of
issue 25), and that its transaction keeps its promises: one commit with the stored answer, an error leaving
nothing behind.

A POST with an Idempotency-Key runs as: the session, the user (Django's), BEGIN, the key's claim, the
service's SAVEPOINT, the Match lock, the match read with its kept state (not its rule profile: the process's
copy), the writer's roles, the row, (the match's levels), the kept state, RELEASE, the stored answer, COMMIT. In a test the request's transaction is a
savepoint of the test's, and SQLite takes its write lock with a no-op UPDATE (+ 1).
"""
import json
import os
import re
import subprocess
import sys

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from infra.models import IdempotencyRecord
from rulings.models import Ruling
from scoring import services
from scoring.models import Hand, MatchSnapshot
from tests.scoring.test_hands_support import hand_body, match, post_hand, referee  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db
IN_TEST = 2 + (connection.vendor == "sqlite")
# session, user, claim, SAVEPOINT, lock, read, roles, insert, match update, kept state, RELEASE, the answer (the
# new hand is current without asking)
HAND_QUERIES = 12 + IN_TEST
# session, user, claim, SAVEPOINT, lock, read, roles, a ruling with the client's key, insert, kept state, RELEASE,
# the answer (a ruling on the hand in play: no match update)
RULING_QUERIES = 12 + IN_TEST


def played(match, referee, hands):
    for number in range(1, hands + 1):
        services.record_hand(match, referee, number=number, trump="H", defender_points=120,
                             declarer="N" if number == 1 else None)


def count(client, url, body, key):
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(url, data=json.dumps(body), content_type="application/json",
                               HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 201, response.content
    return [q["sql"] for q in ctx.captured_queries]


@pytest.mark.parametrize("hands", [1, 30])
def test_a_hand_post_costs_the_same_few_queries_however_long_the_match(client, match, referee, hands):
    played(match, referee, hands)
    client.force_login(referee)
    queries = count(client, f"/api/matches/{match.pk}/hands/", hand_body(hands + 1, 120), f"h{hands}")
    assert len(queries) <= HAND_QUERIES, "\n".join(queries)
    hands_read = [q for q in queries if re.search(r'(?:FROM|JOIN) "?scoring_hand\b', q)]
    assert not any('"scoring_hand"."match_id" = ' in q for q in hands_read), hands_read   # the match's hands are not read
    assert not any(q.startswith("SELECT") and "scoring_ruleprofile" in q for q in queries), queries


@pytest.mark.parametrize("rulings", [1, 20])
def test_a_ruling_post_costs_the_same_few_queries_however_many_rulings(client, match, referee, rulings):
    from rulings import services as rulings_

    played(match, referee, 1)
    for n in range(rulings):
        rulings_.record_ruling(match, referee, "delay", "NS", idempotency_key=f"old{n}")
    client.force_login(referee)
    queries = count(client, f"/api/matches/{match.pk}/rulings/", {"code": "out_of_turn", "side": "EW"}, "new")
    assert len(queries) <= RULING_QUERIES, "\n".join(queries)
    reads = [q for q in queries if "rulings_ruling" in q and q.startswith("SELECT")]
    assert all('"idempotency_key" = ' in q for q in reads), reads   # only the client key's look-up: no replay
    assert Ruling.objects.filter(match=match).count() == rulings + 1


def test_a_ruling_retry_past_the_middleware_returns_the_stored_ruling(client, match, referee):
    """The key is checked under the match's lock, so a retry whose stored answer is gone gets the same ruling."""
    played(match, referee, 1)
    client.force_login(referee)
    url, body = f"/api/matches/{match.pk}/rulings/", json.dumps({"code": "delay", "side": "NS"})
    first = client.post(url, data=body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="same")
    IdempotencyRecord.objects.all().delete()
    second = client.post(url, data=body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="same")
    assert first.status_code == 201 and second.status_code == 201
    assert first.json()["id"] == second.json()["id"] and Ruling.objects.filter(match=match).count() == 1


def test_a_refused_hand_leaves_nothing_and_its_answer_is_replayed(client, match, referee):
    """A hand the engine refuses after the match was read (the request's transaction spoiled, no savepoint):
    nothing is written, and the 400 is stored on its own and replayed to a retry."""
    played(match, referee, 2)
    client.force_login(referee)
    bad = hand_body(3, 120, declarer="E")   # the rotation names another declarer
    first = post_hand(client, match, bad, HTTP_IDEMPOTENCY_KEY="bad")
    assert first.status_code == 400 and first.json()["field"] == "declarer"
    assert Hand.objects.filter(match=match).count() == 2
    again = post_hand(client, match, bad, HTTP_IDEMPOTENCY_KEY="bad")
    assert again.status_code == 400 and again["Idempotent-Replay"] == "true"
    good = post_hand(client, match, hand_body(3, 120), HTTP_IDEMPOTENCY_KEY="good")
    assert good.status_code == 201 and good.json()["state"]["next_number"] == 4
    assert MatchSnapshot.objects.get(match=match).hand_id == good.json()["hand"]["id"]


@pytest.mark.django_db(transaction=True)
def test_the_same_ruling_sent_twice_at_once_is_stored_once(make_user):
    """The key's claim is part of the request's transaction: a retry sent while the first attempt runs
    waits for it and gets its answer (the same ruling), never a second ruling."""
    import threading

    from django.db import connections
    from django.test import Client

    from demo.hands import scratch_match
    from tournament import roles

    referee = make_user(roles.TABLE_REFEREE)
    table = scratch_match(referees=[referee])
    played(table, referee, 1)
    answers, start = [], threading.Barrier(2)

    def send():
        client = Client()
        client.force_login(referee)
        start.wait()
        response = client.post(f"/api/matches/{table.pk}/rulings/", data=json.dumps({"code": "delay", "side": "NS"}),
                               content_type="application/json", HTTP_IDEMPOTENCY_KEY="twice")
        answers.append((response.status_code, response.json().get("id")))
        connections.close_all()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [status for status, _ in answers] == [201, 201], answers
    assert answers[0][1] == answers[1][1]
    assert Ruling.objects.filter(match=table).count() == 1
    assert IdempotencyRecord.objects.filter(key="twice").count() == 1


def test_a_worker_freezes_what_it_loaded_so_full_collections_skip_it():
    """config.wsgi (what gunicorn imports in each worker) freezes the loaded application for the cyclic
    garbage collector: a full collection then pauses a worker for milliseconds, not a hundred (the p99)."""
    code = "import gc; import config.wsgi; print(gc.get_freeze_count())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"})
    assert int(out.stdout.strip()) > 10_000   # Django and the apps: tens of thousands of objects


def test_a_hand_state_renders_as_drfs_own_field_by_field_rendering(client, match, referee):
    """HandStateSerializer renders the presenter's plain values itself: the same answer DRF's generic
    rendering gives, for every kind of hand."""
    from rest_framework import serializers

    from scoring.api import HandStateSerializer
    from scoring.presenters import state_payload
    from tournament.records.adjustments import match_replay

    played(match, referee, 3)
    services.record_hand(match, referee, number=4, outcome="redeal")
    payload = state_payload(match, referee, match_replay(match))
    field = HandStateSerializer()
    assert len(payload["hands"]) == 4
    for hand in payload["hands"]:
        assert field.to_representation(hand) == serializers.Serializer.to_representation(field, hand)

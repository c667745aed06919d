"""A table's write in its own transaction (as under gunicorn): the deferred writes and, on PostgreSQL, the
COMMIT go in one round trip (config.rowread.later / deferring), and all of it is stored once or not at all
(issue #15: cheaper writes, every write still stored exactly once)."""
import json

import pytest
from django.db import connection

from config import rowread
from config.models import IdempotencyRecord
from rulings.models import Ruling
from scoring.models import Hand, MatchSnapshot
from tests.scoring.test_hands_support import hand_body, match, post_hand, referee  # noqa: F401  (fixtures)
from tournament.models import Match

pytestmark = pytest.mark.django_db(transaction=True)


def post_ruling(client, match, key):
    return client.post(f"/api/matches/{match.pk}/rulings/", data=json.dumps({"code": "delay", "side": "NS"}),
                       content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)


def test_hands_and_rulings_on_the_kept_state_are_stored_once_and_replayed(client, match, referee):
    client.force_login(referee)
    assert post_hand(client, match, hand_body(1, 45, declarer="N"), HTTP_IDEMPOTENCY_KEY="h1").status_code == 201
    answers = [post_hand(client, match, hand_body(n, 45), HTTP_IDEMPOTENCY_KEY=f"h{n}") for n in (2, 3)]
    ruling = post_ruling(client, match, "r1")
    assert [a.status_code for a in answers] == [201, 201] and ruling.status_code == 201
    # what the answers named is what was committed: the hands with their ids, the ruling, the levels
    stored = {h.number: h.pk for h in Hand.objects.filter(match=match)}
    assert stored == {1: stored[1], 2: answers[0].json()["hand"]["id"], 3: answers[1].json()["hand"]["id"]}
    assert Ruling.objects.get(match=match).pk == ruling.json()["id"]
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == (answers[1].json()["state"]["levels"]["NS"],
                                                answers[1].json()["state"]["levels"]["EW"])
    snapshot = MatchSnapshot.objects.get(match=match)
    assert (snapshot.hand_id, snapshot.ruling_id) == (stored[3], ruling.json()["id"])
    assert IdempotencyRecord.objects.get(key="h3").status == 201
    # a retry gets the stored answer and changes nothing
    again = post_hand(client, match, hand_body(3, 45), HTTP_IDEMPOTENCY_KEY="h3")
    assert again.status_code == 201 and again["Idempotent-Replay"] == "true" and again.json() == answers[1].json()
    assert post_ruling(client, match, "r1").json() == ruling.json()
    assert Hand.objects.filter(match=match).count() == 3 and Ruling.objects.filter(match=match).count() == 1


def test_the_last_writes_go_together_before_the_commit(client, match, referee, monkeypatch):
    """The hand, the match's levels, the kept state and the stored answer are sent as one batch at the end
    (nothing of them before it), in the request's own transaction."""
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    batches = []
    real = rowread.first_rows
    monkeypatch.setattr(rowread, "first_rows", lambda statements: batches.append(
        [sql.split()[0:3] for sql, _ in statements]) or real(statements))
    assert post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="k2").status_code == 201
    postgres = connection.vendor == "postgresql"   # the hand's id from its sequence; the COMMIT joins
    assert batches[-1] == [*([["INSERT", "INTO", '"scoring_hand"']] if postgres else []),
                           ["UPDATE", '"tournament_match"', "SET"], ["UPDATE", "scoring_matchsnapshot", "SET"],
                           ["UPDATE", "config_idempotencyrecord", "SET"], *([["COMMIT"]] if postgres else [])]


def test_a_rulings_last_writes_go_together_before_the_commit(client, match, referee, monkeypatch):
    """A ruling on the kept state: its INSERT (the id read with the match, on PostgreSQL), the kept state and
    the stored answer in one batch with the COMMIT: no round trip of its own."""
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    assert post_ruling(client, match, "r0").status_code == 201   # the kept state now holds a ruling
    batches = []
    real = rowread.first_rows
    monkeypatch.setattr(rowread, "first_rows", lambda statements: batches.append(
        [sql.split()[0:3] for sql, _ in statements]) or real(statements))
    response = post_ruling(client, match, "r1")
    assert response.status_code == 201, response.content
    postgres = connection.vendor == "postgresql"
    assert batches[-1] == [*([["INSERT", "INTO", '"rulings_ruling"']] if postgres else []),
                           ["UPDATE", "scoring_matchsnapshot", "SET"], ["UPDATE", "config_idempotencyrecord", "SET"],
                           *([["COMMIT"]] if postgres else [])]
    assert Ruling.objects.get(idempotency_key="r1").pk == response.json()["id"]


@pytest.mark.parametrize("path", ["hands", "rulings"])
def test_the_keys_claim_goes_with_the_match_read(client, match, referee, monkeypatch, path):
    """On PostgreSQL a table's write sends BEGIN, the session's user, the Idempotency-Key's claim, the lock and
    the match read in one round trip (config.rowread.leading, config.sessionuser); elsewhere the claim goes
    first on its own. The write is then two round trips (the session, known to the process since the first
    write, read with its user: config.sessionuser): that one, and the last writes with the COMMIT."""
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    batches = []
    real = rowread._first_rows
    monkeypatch.setattr(rowread, "_first_rows", lambda statements: batches.append(
        [" ".join(sql.split()[0:3]) for sql, _ in statements]) or real(statements))
    body = hand_body(2, 45) if path == "hands" else {"code": "delay", "side": "NS"}
    response = client.post(f"/api/matches/{match.pk}/{path}/", data=json.dumps(body), content_type="application/json",
                           HTTP_IDEMPOTENCY_KEY="claimed")
    assert response.status_code == 201, response.content
    claim = "INSERT INTO config_idempotencyrecord"
    if connection.vendor == "postgresql":
        assert batches[0][:4] == ['SELECT t0."id", t0."password",', claim, "SELECT 1 FROM",
                                  "SELECT t0.\"id\", t0.\"round_id\","]
        assert len(batches) == 2 and batches[1][-1] == "COMMIT"
    else:
        assert batches[0] == [claim]
    assert sum(batch.count(claim) for batch in batches) == 1


@pytest.mark.parametrize("extra, answered", [
    ("UPDATE scoring_matchsnapshot SET no_such_column = 1 WHERE match_id = %s", 500),   # a fault: 5xx
    ("UPDATE scoring_matchsnapshot SET match_id = NULL WHERE match_id = %s", 409),      # a constraint at the commit
], ids=["fault", "constraint"])
def test_a_failing_last_write_leaves_nothing_stored(client, match, referee, monkeypatch, extra, answered):
    """A last write that fails when the batch is sent rolls the whole request back, its key with it: a fault
    answers 5xx, a constraint that fires only then (a race no lock covered) a 409; the client retries both."""
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    levels = Match.objects.values_list("ns_level", "ew_level").get(pk=match.pk)
    real = rowread.later

    def later_then_fail(sql, params):
        real(sql, params)
        if sql.startswith("UPDATE scoring_matchsnapshot"):
            real(extra, [match.pk])

    monkeypatch.setattr(rowread, "later", later_then_fail)
    client.raise_request_exception = False
    response = post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="k-fail")
    assert response.status_code == answered, response.content
    assert list(Hand.objects.filter(match=match).values_list("number", flat=True)) == [1]
    assert Match.objects.values_list("ns_level", "ew_level").get(pk=match.pk) == levels
    assert not IdempotencyRecord.objects.filter(key="k-fail").exists()
    monkeypatch.setattr(rowread, "later", real)   # the retry with the same key is then recorded, once
    assert post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="k-fail").status_code == 201
    assert list(Hand.objects.filter(match=match).values_list("number", flat=True)) == [1, 2]

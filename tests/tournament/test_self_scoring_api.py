"""The self-scoring tables through the API: a side's code as its credential (and its Idempotency-Key's owner),
the table read with the waiting entry apart, a dispute decided by the floor referee, the desk's codes, the
round's close refused, wrong codes answered 429 with Retry-After while the right one passes."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from scoring.models import Hand
from tests.conftest import reads_of
from tests.tournament.selfscore_support import FIRST, PLAYED, make_table
from tournament.models import HandEntry, SideCode
from tournament.selfscore import codes

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_counters")]


@pytest.fixture
def table(make_user):
    return make_table(make_user)


def side_client(t, side):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Side {t.match.pk}:{t.code(side)}")
    return client


def url(t, tail=""):
    return f"/api/matches/{t.match.pk}/hand-entries/{tail}"


def test_two_phones_enter_and_confirm_and_the_table_shows_the_waiting_hand_apart(table):
    ns, ew = side_client(table, "NS"), side_client(table, "EW")
    entered = ns.post(url(table), {"number": 1, **FIRST}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert entered.status_code == 201, entered.json()
    entry = entered.json()
    assert entry["state"] == "waiting" and entry["side"] == "NS"
    again = ns.post(url(table), {"number": 1, **FIRST}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert again.status_code == 201 and again["Idempotent-Replay"] == "true"
    assert HandEntry.objects.filter(match=table.match).count() == 1
    read = APIClient().get(url(table)).json()   # a published event: anybody reads, the waiting hand apart
    assert read["hands"] == [] and read["waiting"]["id"] == entry["id"] and read["recorders"] == "players"
    own = ns.post(url(table, f"{entry['id']}/confirm/"), {}, format="json")
    assert own.status_code == 403 and own.json()["field"] == "code"
    done = ew.post(url(table, f"{entry['id']}/confirm/"), {}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert done.status_code == 201, done.json()
    body = done.json()
    assert body["entry"]["state"] == "confirmed" and body["hand"]["number"] == 1 and body["hand"]["by_players"]
    read = APIClient().get(url(table)).json()
    assert [h["number"] for h in read["hands"]] == [1] and read["waiting"] is None and read["next_number"] == 2


def test_a_dispute_is_decided_by_the_floor_referee(table, make_user):
    ns, ew = side_client(table, "NS"), side_client(table, "EW")
    entry = ns.post(url(table), {"number": 1, **FIRST}, format="json").json()
    disputed = ew.post(url(table, f"{entry['id']}/dispute/"), {"note": "庄家不对"}, format="json")
    assert disputed.status_code == 201 and disputed.json()["state"] == "disputed"
    blocked = ew.post(url(table, f"{entry['id']}/confirm/"), {}, format="json")
    assert blocked.status_code == 409
    referee = APIClient()
    referee.force_authenticate(table.referee)
    listed = referee.get(f"/api/events/{table.match.round.stage.event.slug}/hand-entries/open/?mine=1").json()
    assert [row["id"] for row in listed] == [entry["id"]] and listed[0]["table"] == 1
    outsider = APIClient()
    outsider.force_authenticate(make_user())
    refused = outsider.post(url(table, f"{entry['id']}/decide/"), {"action": "confirm"}, format="json")
    assert refused.status_code in (403, 404)
    decided = referee.post(url(table, f"{entry['id']}/decide/"),
                           {"action": "record", "hand": {"number": 1, "trump": "S", "defender_points": 75,
                                                         "declarer": "E"}}, format="json")
    assert decided.status_code == 201, decided.json()
    assert decided.json()["hand"]["defender_points"] == 75 and decided.json()["entry"]["state"] == "decided"
    assert Hand.objects.get(match=table.match).declarer_seat == "E"


def test_wrong_codes_get_429_with_retry_after_but_the_right_code_passes(table, settings):
    settings.SELF_SCORING_WRONG_CODES = 2
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION=f"Side {table.match.pk}:{'0' * 8 if table.ns != '0' * 8 else '1' * 8}")
    answers = [wrong.post(url(table), {"number": 1, **FIRST}, format="json") for _ in range(3)]
    assert [a.status_code for a in answers] == [400, 400, 429]
    assert answers[0].json()["field"] == "code" and int(answers[2]["Retry-After"]) > 0
    right = side_client(table, "NS").post(url(table), {"number": 1, **FIRST}, format="json")
    assert right.status_code == 201


def test_the_desk_issues_codes_shown_once(table):
    desk = APIClient()
    desk.force_authenticate(table.chief)
    issued = desk.post(f"/api/matches/{table.match.pk}/side-codes/", {"side": "EW"}, format="json")
    assert issued.status_code == 201 and issued["Cache-Control"] == "no-store"
    code = issued.json()["code"]
    old = side_client(table, "EW")
    entry = side_client(table, "NS").post(url(table), {"number": 1, **FIRST}, format="json").json()
    if code != table.ew:
        assert old.post(url(table, f"{entry['id']}/confirm/"), {}, format="json").status_code == 400
    new = APIClient()
    new.credentials(HTTP_AUTHORIZATION=f"Side {table.match.pk}:{code}")
    assert new.post(url(table, f"{entry['id']}/confirm/"), {}, format="json").status_code == 201
    slips = desk.post(f"/api/rounds/{table.match.round_id}/side-codes/", {}, format="json")
    assert slips.status_code == 201 and {row["side"] for row in slips.json()} == {"NS", "EW"}
    referee = APIClient()
    referee.force_authenticate(table.referee)
    assert referee.post(f"/api/matches/{table.match.pk}/side-codes/", {"side": "NS"},
                        format="json").status_code == 403


def test_the_round_cannot_close_while_a_hand_waits(table):
    side_client(table, "NS").post(url(table), {"number": 1, **FIRST}, format="json")
    chief = APIClient()
    chief.force_authenticate(table.chief)
    closed = chief.post(f"/api/rounds/{table.match.round_id}/close/", {}, format="json")
    assert closed.status_code == 409 and closed.json()["field"] == "round"


def test_a_code_of_another_table_is_refused_there(table, make_user):
    other = make_table(make_user, rnd=table.match.round, table=2, chief=table.chief)
    stray = APIClient()
    stray.credentials(HTTP_AUTHORIZATION=f"Side {table.match.pk}:{table.ns}")   # its own match in the header
    answer = stray.post(url(other), {"number": 1, **FIRST}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "code"
    second = side_client(table, "NS").post(url(table), {"number": 2, **PLAYED}, format="json")
    assert second.status_code == 201   # a number past the recorded ones waits; the hand service checks it


def test_a_side_code_is_looked_up_once_for_its_key_and_once_under_the_lock(table):
    """The Idempotency-Key's owner finds the code before the view and DRF is answered the same
    (``infra.auth.CheckedOnce``); the service checks it again under the match's lock (a re-issue may come
    between): two reads of the codes a write, not three."""
    ns, ew = side_client(table, "NS"), side_client(table, "EW")
    with CaptureQueriesContext(connection) as queries:
        entered = ns.post(url(table), {"number": 1, **FIRST}, format="json", HTTP_IDEMPOTENCY_KEY="once")
    assert entered.status_code == 201
    assert reads_of(SideCode, queries) == 2
    with CaptureQueriesContext(connection) as queries:
        done = ew.post(url(table, f"{entered.json()['id']}/confirm/"), {}, format="json", HTTP_IDEMPOTENCY_KEY="once")
    assert done.status_code == 201
    assert reads_of(SideCode, queries) == 2


def test_an_entry_named_at_another_table_is_not_found_there(table, make_user):
    """The match the address names is locked and the entry read at it: another table's entry is a 404 there,
    even with that table's own code, and nothing is recorded."""
    other = make_table(make_user, rnd=table.match.round, table=2)
    entry = side_client(table, "NS").post(url(table), {"number": 1, **FIRST}, format="json").json()
    for client in (side_client(other, "EW"), side_client(table, "EW")):
        refused = client.post(url(other, f"{entry['id']}/confirm/"), {}, format="json")
        assert refused.status_code == 404 and refused.json()["field"] == "entry"
    assert not Hand.objects.exists()
    assert side_client(table, "EW").post(url(table, f"{entry['id']}/confirm/"), {}, format="json").status_code == 201


def test_a_replaced_code_is_told_apart_from_a_wrong_one(table):
    """A side holding its old slip after the desk re-issued its code learns the code was replaced (and types the
    new slip's), not that it mistyped; both are counted as wrong tries."""
    old = table.code("NS")
    codes.issue_code(table.match, "NS", table.chief)
    replaced = side_client(table, "NS").post(url(table), {"number": 1, **FIRST}, format="json")
    assert replaced.status_code == 400 and replaced.json()["code"] == "code_replaced"
    assert replaced.json()["field"] == "code" and "新码条" in replaced.json()["detail"]
    typo = APIClient()
    typo.credentials(HTTP_AUTHORIZATION=f"Side {table.match.pk}:{(int(old) + 1) % 10**8:08d}")
    wrong = typo.post(url(table), {"number": 1, **FIRST}, format="json")
    assert wrong.status_code == 400 and wrong.json()["code"] == "invalid"
    assert codes.wrong_tries(table.match.pk, "127.0.0.1") == 2

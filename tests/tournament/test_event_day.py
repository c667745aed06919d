"""The event day under control: finished matches, a chief's result where the hands cannot decide,
rulings decided by whom the rules say, rounds that close and the appeal deadline they start."""
import datetime as dt

import pytest
from rest_framework.test import APIClient

from common.errors import ConflictError, ForbiddenError
from rulings import appeals
from rulings import services as rulings
from scoring.services import HandConflict, HandRefused, correct_last_hand, record_hand
from tests.tournament.test_results import knockout, one_hand_left, row  # noqa: F401  (fixtures)
from tournament import roles
from tournament.clocks import services as clock_services
from tournament.competition import referees, results, rounds
from tournament.models import Match, ResultDecision, RoundClosure
from tournament.records.ledger import IN_FORCE, PENDING, entry_of


@pytest.fixture
def chief(make_user):
    return make_user(roles.CHIEF_REFEREE)


@pytest.fixture
def referee(make_user):
    return make_user(roles.TABLE_REFEREE)


def api_as(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_finished_match_refuses_the_table_referee_and_takes_the_chiefs_correction(knockout, chief, referee):
    semi = row(knockout, "R1-M1")
    referees.assign_referee(semi, referee)
    one_hand_left(semi)
    record_hand(semi, referee, number=1, trump="S", defender_points=0, declarer="N")   # ends it at time-up
    semi = row(knockout, "R1-M1")
    assert semi.status == Match.Status.FINISHED
    with pytest.raises(HandConflict):
        record_hand(semi, referee, number=2, trump="S", defender_points=40)
    with pytest.raises(HandRefused, match="只有裁判长可以更正"):
        correct_last_hand(semi, referee, number=1, trump="S", defender_points=160)
    correct_last_hand(semi, chief, number=1, trump="S", defender_points=160)
    assert row(knockout, "R1-M1").winner_id == semi.ew_id


def test_a_table_with_no_hand_at_time_up_gets_the_chiefs_result_and_the_bracket_moves(knockout, chief, frozen_now):
    semi = row(knockout, "R1-M1")
    clock_services.set_clock_settings(semi.round, chief, announce_enabled=False)
    clock_services.start_clock(semi.round, chief)
    frozen_now.advance(minutes=24 * 60)
    clock_services.fire_due(semi.round_id)
    semi = row(knockout, "R1-M1")
    assert semi.status == Match.Status.FINISHED and semi.winner_id is None      # time up, no hand: no winner
    final = row(knockout, "R2-M1")
    assert semi.ns_id not in (final.ns_id, final.ew_id) and semi.ew_id not in (final.ns_id, final.ew_id)

    answer = api_as(chief).post(f"/api/matches/{semi.pk}/result/", {"winner": "EW", "reason": "北方选手突发疾病"},
                                format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["winner"] == "EW" and answer.json()["status"] == "finished"
    semi = row(knockout, "R1-M1")
    assert semi.winner_id == semi.ew_id and semi.result_note == "北方选手突发疾病"
    assert semi.ew_id in (row(knockout, "R2-M1").ns_id, row(knockout, "R2-M1").ew_id)
    decision = ResultDecision.objects.get(match=semi)
    assert (decision.kind, decision.winner, decision.decided_by) == ("decided", "EW", chief)


def test_the_chief_cannot_overrule_what_the_hands_decide_and_a_referee_cannot_decide(knockout, chief, referee):
    semi = row(knockout, "R1-M1")
    one_hand_left(semi)
    record_hand(semi, chief, number=1, trump="S", defender_points=0, declarer="N")   # NS win at time-up
    with pytest.raises(ConflictError) as refused:
        results.decide_match(semi, chief, winner="EW", kind="decided", reason="试图改判")
    assert refused.value.status == 409
    answer = api_as(referee).post(f"/api/matches/{semi.pk}/result/", {"winner": "EW", "reason": "x"}, format="json")
    assert answer.status_code == 403 and answer.json()["detail"]
    assert not ResultDecision.objects.exists()


def test_a_chief_recorded_forfeit_decides_at_once_and_a_referee_proposed_one_waits(knockout, chief, referee):
    semi, other = row(knockout, "R1-M1"), row(knockout, "R1-M2")
    referees.assign_referee(other, referee)
    ruling = rulings.record_ruling(semi, chief, "cheating", "EW")     # 000 第十六条（四）: 有意犯规，判负
    assert entry_of(semi, ruling).state == IN_FORCE and ruling.approval.decided_by == chief
    semi = row(knockout, "R1-M1")
    assert semi.status == Match.Status.FORFEIT and semi.winner_id == semi.ns_id
    proposed = rulings.record_ruling(other, referee, "cheating", "EW")
    assert entry_of(other, proposed).state == PENDING
    assert row(knockout, "R1-M2").status != Match.Status.FORFEIT
    late = rulings.record_ruling(other, referee, "late", "NS", minutes=9)  # 000 第十七条（一）: automatic, no approval
    assert entry_of(other, late).state == IN_FORCE and row(knockout, "R1-M2").status == Match.Status.FORFEIT


def test_a_round_closes_only_when_every_table_has_a_result_then_referees_cannot_write(knockout, chief, referee):
    semi, other = row(knockout, "R1-M1"), row(knockout, "R1-M2")
    referees.assign_referee(other, referee)
    one_hand_left(semi)
    record_hand(semi, chief, number=1, trump="S", defender_points=0, declarer="N")
    client = api_as(chief)
    refused = client.post(f"/api/rounds/{semi.round_id}/close/")
    assert refused.status_code == 409 and f"第{other.table}桌" in refused.json()["detail"]
    assert not RoundClosure.objects.exists()

    one_hand_left(other)
    record_hand(other, referee, number=1, trump="S", defender_points=0, declarer="N")
    closed = client.post(f"/api/rounds/{semi.round_id}/close/")
    assert closed.status_code == 200 and closed.json()["results_published_at"]
    late = api_as(referee).post(f"/api/matches/{other.pk}/hands/1/correct/",
                                {"trump": "S", "defender_points": 160}, format="json")
    assert late.status_code in (403, 409) and late.json()["detail"]
    assert api_as(referee).post(f"/api/rounds/{semi.round_id}/close/").status_code == 403


def test_reopening_needs_a_chief_and_a_reason(knockout, chief, make_user):
    semi, other = row(knockout, "R1-M1"), row(knockout, "R1-M2")
    for match in (semi, other):
        one_hand_left(match)
        record_hand(match, chief, number=1, trump="S", defender_points=0, declarer="N")
    rounds.close_round(semi.round, make_user(roles.ORGANISER))
    with pytest.raises(ForbiddenError):
        rounds.reopen_round(semi.round, make_user(roles.ORGANISER), "改错")
    with pytest.raises(Exception, match="理由"):
        rounds.reopen_round(semi.round, chief, "  ")
    reopened = rounds.reopen_round(semi.round, chief, "第1桌记分有误")
    assert reopened.results_published_at is None
    assert [c.action for c in RoundClosure.objects.order_by("id")] == ["close", "reopen"]


def test_the_appeal_deadline_counts_from_the_close(knockout, chief, make_user, frozen_now):
    """000 第十九条: 该轮比赛结束后10分钟内, counted from the table's end of play (its last hand, here at the
    same moment as the close; a close later than the play: rulings/test_rules_readings.py, issue 28 item 6)."""
    semi, other = row(knockout, "R1-M1"), row(knockout, "R1-M2")
    warned = rulings.record_ruling(semi, chief, "delay", "EW")
    second = rulings.record_ruling(semi, chief, "delay", "NS")
    for match in (semi, other):
        one_hand_left(match)
        record_hand(match, chief, number=1, trump="S", defender_points=0, declarer="N")
    closed = rounds.close_round(semi.round, chief)
    deadline = closed.results_published_at + dt.timedelta(minutes=10)
    assert appeals.appeal_deadline_for(warned) == deadline
    frozen_now.advance(seconds=10 * 60 - 1)
    appeals.file_appeal(warned, chief, "EW", "不服")                     # one second before: taken
    frozen_now.advance(seconds=2)
    with pytest.raises(Exception, match="申诉期限已过"):                 # one second after: refused
        appeals.file_appeal(second, chief, "NS", "不服")

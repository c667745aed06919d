"""An appeal after the match can amend it (issue 27, item 3). Appeals arrive after the match, within the appeal
window (000 第十九条（二）: 10 minutes after the round ends), by design. 改判 on a ruling of a finished match was
refused ("比赛已结束，NS已获胜") when the amended ruling moved an earlier hand so that the match was won before its
last recorded hand: the replay could not play that hand. Now the hands after the deciding one no longer count
(past A wins), and the match is settled again by its one owner (``results.settle``), the bracket moving with a
changed winner. Where the winner's next match has begun, the 409 names it and offers what the rules leave: the
deciding body keeps the result (``result_stands``: the chief referee's decision at the first instance, the
arbitration group's under union-games), the sanction going on the record. After every decision the
stored match is its replay (``scoring.replay_check``)."""
import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from rest_framework.test import APIClient

from demo.hands import scratch_match
from rulings import appeals, services
from rulings.models import AppealDecision
from scoring import services as scoring
from scoring.replay_check import check_match
from tests.tournament.test_draws_support import finish
from tests.tournament.test_reserve_substitution import _first, knockout  # noqa: F401
from tournament import roles
from tournament.competition import rounds
from tournament.models import Match
from tournament.models.competition import describe_key
from tournament.records.ledger import AMENDED, IN_FORCE, match_entries


def _stored(match):
    return Match.objects.select_related("profile", "ns", "ew", "round").get(pk=match.pk)


def _side(match):
    return {match.ns_id: "NS", match.ew_id: "EW"}.get(match.winner_id)


@pytest.fixture
def won_then_closed(make_user, frozen_now):
    """shenzhen: hand 1 (N declares, defenders 0), a delay warning to EW in hand 2, NS keep declaring until past
    A; the round closed (its appeal window open)."""
    referee, chief, chief2 = (make_user(roles.TABLE_REFEREE), make_user(roles.CHIEF_REFEREE),
                              make_user(roles.CHIEF_REFEREE))
    match = scratch_match("shenzhen-community", referees=[referee])
    scoring.record_hand(match, referee, number=1, trump="S", defender_points=0, declarer="N")
    ruling = services.record_ruling(Match.objects.get(pk=match.pk), referee, "delay", "EW")
    number = 2
    while not Match.objects.get(pk=match.pk).is_over:
        scoring.record_hand(Match.objects.get(pk=match.pk), referee, number=number, trump="S", defender_points=0)
        number += 1
    rounds.close_round(match.round, chief)
    match = _stored(match)
    assert (match.status, _side(match), match.hands.count()) == (Match.Status.FINISHED, "NS", 5)
    return match, ruling, {"referee": referee, "chief": chief, "chief2": chief2}


def test_an_amendment_after_the_match_resettles_it(won_then_closed):
    """The delay warning amended to 甩错牌 one card (000 第十七条（四）1: 10 points to the declarers' favour):
    NS pass A one hand earlier, hand 5 no longer counts; the stored match is its replay."""
    match, ruling, users = won_then_closed
    appeal = appeals.file_appeal(ruling, users["referee"], "EW", "申诉")
    row = appeals.decide_appeal(appeal, users["chief2"], instance=1, outcome="amended", reason="改判为甩错牌",
                                amendment={"code": "failed_throw", "cards": 1})
    states = {entry.ruling.pk: entry.state for entry in match_entries(_stored(match))}
    assert states == {ruling.pk: AMENDED, row.replacement_id: IN_FORCE}
    stored = _stored(match)
    assert (stored.status, _side(stored)) == (Match.Status.FINISHED, "NS")
    assert check_match(stored) == []                          # levels, result and kept state: the replay's


def test_a_changed_winner_moves_the_bracket(knockout):  # noqa: F811
    """union-games 二.14: NS 15 minutes late forfeit (automatic); amended to 10 minutes (−10 in the first hand)
    before the next match begins, the match has no result any more and the next match loses EW as entrant."""
    event, stage, _reserves, users = knockout
    match = _first(stage)[0]
    arbiter = _arbiter()
    late = services.record_ruling(match, users["chief"], "late", "NS", minutes=15)
    match = _stored(match)
    assert (match.status, _side(match)) == (Match.Status.FORFEIT, "EW")
    following = _next(stage, match)
    assert match.ew_id in (following.ns_id, following.ew_id)
    appeal = appeals.file_appeal(late, users["chief"], "NS", "只迟到10分钟")
    appeals.decide_appeal(appeal, arbiter, instance=1, outcome="amended", amendment={"minutes": 10})
    match, following = _stored(match), Match.objects.get(pk=following.pk)
    assert not match.is_over and match.winner_id is None
    assert match.ew_id not in (following.ns_id, following.ew_id)
    assert check_match(match) == []


def test_when_the_next_match_has_begun_the_409_says_so_and_the_result_can_stand(knockout):  # noqa: F811
    event, stage, _reserves, users = knockout
    match = _first(stage)[0]
    arbiter = _arbiter()
    late = services.record_ruling(match, users["chief"], "late", "NS", minutes=15)
    match = _stored(match)
    following = _next(stage, match)
    Match.objects.filter(pk=following.pk).update(status=Match.Status.PLAYING, started_at=match.finished_at)
    appeal = appeals.file_appeal(late, users["chief"], "NS", "只迟到10分钟")
    api = APIClient()
    api.force_authenticate(arbiter)
    url = reverse("api_appeal_decisions", args=[appeal.pk])
    body = {"instance": 1, "outcome": "amended", "reason": "只迟到10分钟", "amendment": {"minutes": 10}}
    refused = api.post(url, body, format="json")
    assert refused.status_code == 409, refused.json()
    assert refused.json()["field"] == "result_stands"
    detail = refused.json()["detail"]
    assert detail.count(str(match.winner)) >= 3                              # the match, its winner, who stays
    assert f"{following.round} {describe_key(following.bracket_key)}" in detail and str(following.table) in detail
    assert not AppealDecision.objects.exists()                               # nothing half-saved
    kept = api.post(url, {**body, "result_stands": True}, format="json")
    assert kept.status_code == 201, kept.json()
    decision = AppealDecision.objects.get()
    assert (decision.outcome, decision.result_stands) == ("amended", "EW")
    stored = _stored(match)
    assert (_side(stored), stored.is_over) == ("EW", True) and stored.result_note
    assert Match.objects.get(pk=following.pk).status == Match.Status.PLAYING
    assert check_match(stored) == []
    entries = {e.ruling.amends_id: e.state for e in match_entries(stored)}
    assert entries[late.pk] == IN_FORCE                                      # the amended sanction is on record


def test_result_stands_only_where_the_decision_changes_the_result(won_then_closed):
    match, ruling, users = won_then_closed
    appeal = appeals.file_appeal(ruling, users["referee"], "EW")
    with pytest.raises(services.RulingError) as refused:
        appeals.decide_appeal(appeal, users["chief2"], instance=1, outcome="reversed", result_stands=True)
    assert refused.value.field == "result_stands"
    assert not AppealDecision.objects.exists()


def test_a_closed_rounds_match_left_without_a_result_is_refused_with_the_way_forward(knockout):  # noqa: F811
    """The round is closed: an amendment that takes the result away cannot reopen the match for play; the 409
    offers keeping the result or reopening the round."""
    event, stage, _reserves, users = knockout
    first = _first(stage)
    match = first[0]
    arbiter = _arbiter()
    late = services.record_ruling(match, users["chief"], "late", "NS", minutes=15)
    for other in first[1:]:
        finish(other)
    rounds.close_round(match.round, users["chief"])
    appeal = appeals.file_appeal(late, users["chief"], "NS")
    with pytest.raises(appeals.ResultCannotChange) as refused:
        appeals.decide_appeal(appeal, arbiter, instance=1, outcome="reversed")
    assert refused.value.field == "result_stands" and refused.value.status == 409
    appeals.decide_appeal(appeal, arbiter, instance=1, outcome="reversed", result_stands=True)
    stored = _stored(match)
    assert (_side(stored), stored.status) == ("EW", Match.Status.FINISHED)
    assert check_match(stored) == []


def _arbiter():
    """union-games 二.5: appeals go to the arbitration group, whose decision is final."""
    user = User.objects.create_user(username="arbiter-a")
    user.groups.add(Group.objects.get(name=roles.ARBITRATION))
    return user


def _next(stage, match):
    code = f"W:{match.bracket_key}"
    return Match.objects.filter(round__stage=stage, round__number=2).filter(ns_source=code).first() or \
        Match.objects.get(round__stage=stage, round__number=2, ew_source=code)

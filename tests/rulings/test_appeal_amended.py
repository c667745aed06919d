"""改判 (amended): the deciding body replaces the appealed ruling with another sanction (issue #12, item 5:
outcomes 维持 / 改判 / 撤销). The new ruling is a new row linked to the appealed one (who, when); the old
one reads as 改判 and leaves the replay, the new one applies through the ledger, and the match's result is
settled again by its one owner. A later instance that decides otherwise sets the replacement aside."""
import pytest
from django.utils import translation
from rest_framework.test import APIClient

from rulings import appeals as appeals_
from rulings import services
from rulings.appeal_route import OUTCOME_LABELS
from rulings.models import AppealDecision, Ruling
from scoring import services as hand_services
from tournament.printouts import penalties
from tournament.printouts.common import PrintOptions
from tournament.records import adjustments as adjustments_
from tournament.records import ledger as ledger_


@pytest.fixture
def penalty(table, frozen_now):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "failed_throw", "NS", cards=2, role="declarers")
    return match, users, ruling


def test_an_amended_ruling_is_replaced_by_a_new_ruling_that_applies_instead(penalty):
    """000 第十七条（四）1 甩错牌 per card: two cards (20 points) amended to one card (10 points)."""
    match, users, ruling = penalty
    assert adjustments_.hand_adjustments(match)[1]["penalty_points"] == 20
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS", "只甩错一张")
    row = appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="amended", reason="只有一张",
                                 amendment={"cards": 1, "role": "declarers"})
    new = Ruling.objects.get(pk=row.replacement_id)
    assert (new.amends_id, new.code, new.cards, new.hand_number) == (ruling.pk, "failed_throw", 1, 1)
    assert (new.recorded_by, new.recorded_at) == (users["chief2"], row.decided_at)
    states = {e.ruling.pk: e.state for e in ledger_.match_entries(match)}
    assert states == {ruling.pk: ledger_.AMENDED, new.pk: ledger_.IN_FORCE}
    assert adjustments_.hand_adjustments(match)[1]["penalty_points"] == 10
    ruling.refresh_from_db()
    assert ruling.cards == 2  # the old row is kept as it was (append-only)


def test_a_later_instance_that_upholds_sets_the_replacement_aside(penalty):
    """shenzhen: chief referee, then the organising committee; the last instance's decision stands."""
    match, users, ruling = penalty
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS")
    row = appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="amended",
                                 amendment={"cards": 1, "role": "declarers"})
    appeals_.decide_appeal(appeal, users["organiser"], instance=2, outcome="upheld")
    states = {e.ruling.pk: e.state for e in ledger_.match_entries(match)}
    assert states == {ruling.pk: ledger_.IN_FORCE, row.replacement_id: ledger_.LAPSED}
    assert adjustments_.hand_adjustments(match)[1]["penalty_points"] == 20


def test_an_amendment_resettles_the_match_levels(table, frozen_now):
    """000 第十七条（六） hidden card established: declarers' side goes up 5 (3→8; off the must-play 2 first, as
    an award stops on a must-play level: issue 28); amended on appeal to a failed throw of one card, the +5
    leaves the match's stored levels (settled by results.settle)."""
    match, users = table
    hand_services.record_hand(match, users["chief"], number=1, trump="H", defender_points=70, declarer="N")
    ruling = services.record_ruling(match, users["chief"], "hidden_card", "EW", choice="established", role="defenders",
                                    declarer="S")
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("8", "2")
    appeal = appeals_.file_appeal(ruling, users["chief"], "EW")
    appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="amended",
                           amendment={"code": "failed_throw", "cards": 1, "role": "defenders"})
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("3", "2")


def test_an_amendment_needs_the_new_sanction_and_the_engine_checks_it(penalty):
    match, users, ruling = penalty
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS")
    with pytest.raises(services.RulingError) as missing:
        appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="amended")
    assert missing.value.field == "amendment"
    with pytest.raises(services.RulingError) as unknown:
        appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="amended", amendment={"code": "nope"})
    assert unknown.value.field == "code"
    assert not AppealDecision.objects.exists() and Ruling.objects.count() == 1   # nothing half-saved


def test_the_api_takes_amended_and_answers_in_chinese(penalty):
    match, users, ruling = penalty
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS")
    api = APIClient()
    api.force_authenticate(users["chief2"])
    answer = api.post(f"/api/appeals/{appeal.pk}/decisions/",
                      {"instance": 1, "outcome": "amended", "reason": "只有一张",
                       "amendment": {"cards": 1, "role": "declarers"}}, format="json",
                      HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert answer.status_code == 201, answer.content
    decision = answer.json()["decisions"][0]
    assert decision["outcome_label"] == "改判" and decision["replacement"]
    log = APIClient().get(f"/api/matches/{match.pk}/rulings/", HTTP_ACCEPT_LANGUAGE="zh-hans").json()["rulings"]
    assert [(r["state"], r["amends"]) for r in log] == [("amended", None), ("in_force", ruling.pk)]
    assert log[0]["state_label"] == "申诉改判"
    bad = api.post(f"/api/appeals/{appeal.pk}/decisions/", {"instance": 2, "outcome": "amended"}, format="json")
    assert bad.status_code in (400, 403, 409)


@pytest.mark.parametrize("outcome, label", [("upheld", "维持"), ("amended", "改判"), ("reversed", "撤销")])
def test_the_outcomes_read_in_chinese(outcome, label):
    with translation.override("zh-hans"):
        assert translation.gettext(OUTCOME_LABELS[outcome]) == label


def test_every_page_and_the_printout_say_gaipan(penalty, client):
    """The desk, the arbitration page, the public penalty log and the penalties printout: 维持 / 改判 / 撤销."""
    match, users, ruling = penalty
    event = match.round.stage.event
    appeal = appeals_.file_appeal(ruling, users["chief"], "NS", "只甩错一张")
    appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="amended",
                           amendment={"cards": 1, "role": "declarers"})
    public = client.get(f"/events/{event.slug}/penalties/").content.decode()
    assert "申诉改判" in public and "改判" in public and "改判后的判罚" in public
    client.force_login(users["organiser"])
    arbitration = client.get(f"/manage/{event.slug}/arbitration/").content.decode()
    assert 'value="upheld"' in arbitration and 'value="amended"' in arbitration and 'value="reversed"' in arbitration
    assert "改判" in arbitration and "甩错牌" in arbitration
    client.force_login(users["chief"])
    desk = client.get(f"/manage/{event.slug}/rounds/{match.round_id}/desk/state/").json()
    assert [d["outcome_label"] for d in desk["appeals_all"][0]["decisions"]] == ["改判"]
    assert desk["appeals_all"][0]["decisions"][0]["replacement"]   # the new sanction's text
    offered = [r["id"] for t in desk["tables"] for r in t["rulings"]]   # what the desk offers to void or appeal
    assert offered == [Ruling.objects.get(amends=ruling).pk]     # the replacement, not the amended ruling
    with translation.override("zh-hans"):
        lines = penalties.collect(event, PrintOptions()).lines
    assert [line.state for line in lines] == ["申诉改判（申诉：改判）", "生效（改判后的判罚（申诉裁决））"]

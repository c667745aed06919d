"""The chief referee voids any ruling of a table, not only the last (issue #43, item 3 and minor 9).

A void is a new row (who, when, the reason); the ledger counts the later rulings again, so their
escalation follows (000 第十六条（二）（四）: the 2nd warning of a side in the match is a recorded violation, the
3rd recorded violation a match loss the chief referee approves; 003 二.13: the 3rd signal puts the side out),
an approved forfeit or disqualification they carried is undone (the match back in play, the bracket and the
pair's place given back), and the stored match equals its replay (``scoring.replay_check``). Before the void,
``rulings.previews.void_impact`` says what it would change, storing nothing; before an approval that ends a
match, ``rulings.previews.approval_impact`` names the loser."""
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rulings import previews, services
from rulings.models import Approval, Ruling, RulingVoid
from scoring.replay_check import check_match
from tests.tournament.test_reserve_substitution import _first, knockout  # noqa: F401
from tournament.models import Match, Pair, PairRemoval
from tournament.models.competition import describe_key
from tournament.records import ledger as ledger_


def _stored(match):
    return Match.objects.select_related("profile", "ns", "ew", "round").get(pk=match.pk)


def _kinds(match):
    return [(e.state, sorted(e.sanction.kinds) if e.sanction else None) for e in ledger_.match_entries(_stored(match))]


def _ladder_to_forfeit(match, referee):
    """shenzhen-community 第十六条（二）（四）: NS warned (delay), warned again (noise: the 2nd warning, a violation),
    a violation (peeking), a 4th offence recorded as a violation (misconduct): the 3rd violation, a match loss
    proposed to the chief referee."""
    rulings = [services.record_ruling(match, referee, "delay", "NS"),
               services.record_ruling(match, referee, "noise", "NS"),
               services.record_ruling(match, referee, "peeking", "NS"),
               services.record_ruling(match, referee, "misconduct", "NS", choice="violation")]
    assert _kinds(match) == [("in_force", ["warning"]), ("in_force", ["violation"]), ("in_force", ["violation"]),
                             ("pending", ["match_forfeit", "violation"])]
    return rulings


def test_voiding_a_middle_ruling_counts_the_later_ones_again(table):
    match, users = table
    delay, noise, peeking, misconduct = _ladder_to_forfeit(match, users["referee"])
    impact = previews.void_impact(Ruling.objects.get(pk=noise.pk))
    assert not RulingVoid.objects.exists()                                   # the preview stores nothing
    # counted again: peeking the 2nd warning (still a violation), misconduct the 2nd violation (no match loss)
    assert [c["ruling"] for c in impact["changes"]] == [peeking.pk, misconduct.pk]
    assert "第3次警告" in impact["changes"][0]["before"] and "第2次警告" in impact["changes"][0]["after"]
    assert (impact["changes"][1]["state_before"], impact["changes"][1]["state_after"]) == ("pending", "in_force")
    assert "判负" in impact["changes"][1]["before"] and "判负" not in impact["changes"][1]["after"]
    assert not impact["reopens"] and impact["text"][0].startswith("第1副，南北方：")
    services.void_ruling(noise, users["chief"], "记错桌")
    assert _kinds(match) == [("in_force", ["warning"]), ("void", None), ("in_force", ["violation"]),
                             ("in_force", ["violation"])]
    row = RulingVoid.objects.get()
    assert (row.ruling_id, row.voided_by, row.reason) == (noise.pk, users["chief"], "记错桌")
    assert Ruling.objects.count() == 4                                       # nothing deleted
    assert check_match(_stored(match)) == []


def test_voiding_the_first_warning_turns_the_second_back_into_a_warning(table):
    """第十六条（二）: the 2nd warning is a violation; void the 1st and the 2nd is the 1st again."""
    match, users = table
    first = services.record_ruling(match, users["referee"], "delay", "NS")
    services.record_ruling(match, users["referee"], "delay", "NS")
    impact = previews.void_impact(first)
    assert [(c["state_before"], c["state_after"]) for c in impact["changes"]] == [("in_force", "in_force")]
    assert "违例" in impact["changes"][0]["before"] and "违例" not in impact["changes"][0]["after"]
    assert impact["text"] == [f"第1副，南北方：{impact['changes'][0]['before']} → {impact['changes'][0]['after']}"]


def test_voiding_an_earlier_ruling_undoes_the_approved_forfeit_it_caused(table):
    """The 3rd violation's match loss, approved by the chief (第十六条（四）): void the 2nd warning that made the
    first violation, the loss is a violation again and the match is back in play."""
    match, users = table
    delay, noise, peeking, misconduct = _ladder_to_forfeit(match, users["referee"])
    services.approve(misconduct, users["chief"], approved=True)
    stored = _stored(match)
    assert (stored.status, stored.winner_id) == (Match.Status.FORFEIT, stored.ew_id)
    impact = previews.void_impact(Ruling.objects.get(pk=delay.pk))
    assert impact["reopens"] and impact["result_before"] == {"over": True, "winner": "EW"}
    assert impact["result_after"] == {"over": False, "winner": None}
    assert any("恢复" in line for line in impact["text"]), impact["text"]
    services.void_ruling(delay, users["chief"], "误判")
    stored = _stored(match)
    assert (stored.status, stored.winner_id) == (Match.Status.SCHEDULED, None)
    assert _kinds(match)[1:] == [("in_force", ["warning"]), ("in_force", ["violation"]), ("in_force", ["violation"])]
    assert Approval.objects.filter(ruling=misconduct).exists()              # the approval stays on record
    assert check_match(stored) == []


def test_voiding_the_approved_forfeit_itself_reopens_the_match(table):
    match, users = table
    *_, misconduct = _ladder_to_forfeit(match, users["referee"])
    services.approve(misconduct, users["chief"], approved=True)
    assert previews.void_impact(Ruling.objects.get(pk=misconduct.pk))["reopens"]
    services.void_ruling(misconduct, users["chief"], "撤销")
    stored = _stored(match)
    assert (stored.status, stored.winner_id) == (Match.Status.SCHEDULED, None)
    assert check_match(stored) == []


def test_a_void_preview_of_a_void_ruling_is_refused(table):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "delay", "NS")
    services.void_ruling(ruling, users["referee"])
    with pytest.raises(services.UserError):
        previews.void_impact(ruling)


def test_approval_impact_names_the_loser_and_stores_nothing(table):
    """第十六条（四）: the 3rd violation is a match loss; approving it ends the match, EW winning."""
    match, users = table
    *_, misconduct = _ladder_to_forfeit(match, users["referee"])
    impact = previews.approval_impact(Ruling.objects.get(pk=misconduct.pk))
    assert (impact["ends_match"], impact["loser"], impact["winner_after"]) == (True, "NS", "EW")
    assert impact["text"] == "核准后本场判负：南北方负，比赛结束。"
    assert not Approval.objects.exists() and not _stored(match).is_over
    warning = Ruling.objects.filter(match=match).order_by("sequence").first()
    assert previews.approval_impact(warning)["ends_match"] is False


def test_voiding_an_earlier_signal_undoes_a_disqualification_and_the_bracket_moves_back(knockout):  # noqa: F811
    """003 二.13: the 3rd signal puts the side out; the chief's option "out of the event" is a disqualification
    the chief approves. Void the 1st signal: the 3rd is the 2nd (−50), the disqualification is undone, the pair
    plays on and the winner's place in the next match is taken back."""
    event, stage, _reserves, users = knockout
    match = _first(stage)[0]
    match.referees.add(users["referee"])
    first = services.record_ruling(match, users["referee"], "signal", "NS")
    services.record_ruling(match, users["referee"], "signal", "NS")
    third = services.record_ruling(match, users["referee"], "signal", "NS", choice="event")
    impact = previews.approval_impact(Ruling.objects.get(pk=third.pk))
    assert impact["disqualification"] and "取消" in impact["text"], impact
    services.approve(third, users["chief"], approved=True)
    stored = _stored(match)
    out = Pair.objects.get(pk=stored.ns_id)
    assert (stored.status, stored.winner_id, out.status) == (Match.Status.FORFEIT, stored.ew_id, "disqualified")
    following = Match.objects.filter(round__stage=stage, round__number=2).filter(
        ns_source=f"W:{stored.bracket_key}").first() or Match.objects.get(
        round__stage=stage, round__number=2, ew_source=f"W:{stored.bracket_key}")
    assert stored.ew_id in (following.ns_id, following.ew_id)
    impact = previews.void_impact(Ruling.objects.get(pk=first.pk))
    assert impact["reopens"] and impact["lifts_removal"] and not impact["refused"], impact
    services.void_ruling(first, users["chief"], "第一次不成立")
    stored, following = _stored(match), Match.objects.get(pk=following.pk)
    assert (stored.status, stored.winner_id) == (Match.Status.SCHEDULED, None)
    assert stored.ew_id not in (following.ns_id, following.ew_id)
    assert Pair.objects.get(pk=out.pk).status == "active"
    assert PairRemoval.objects.get(pair=out).restoration is not None
    assert check_match(stored) == []


def test_the_api_previews_a_void_and_an_approval_and_voids_any_ruling(table):
    match, users = table
    delay, noise, peeking, misconduct = _ladder_to_forfeit(match, users["referee"])
    chief = APIClient()
    chief.force_authenticate(users["chief"])
    answer = chief.get(reverse("api_ruling_approval_preview", args=[misconduct.pk]))
    assert answer.status_code == 200, answer.content
    assert answer.json()["ends_match"] and answer.json()["loser"] == "NS"
    referee = APIClient()
    referee.force_authenticate(users["referee"])
    assert referee.get(reverse("api_ruling_approval_preview", args=[misconduct.pk])).status_code == 403
    answer = chief.get(reverse("api_ruling_void_preview", args=[noise.pk]))
    assert answer.status_code == 200, answer.content
    assert [c["ruling"] for c in answer.json()["changes"]] == [peeking.pk, misconduct.pk]
    assert not RulingVoid.objects.exists()
    done = chief.post(reverse("api_ruling_void", args=[noise.pk]), {"reason": "记错桌"}, format="json")
    assert done.status_code == 200, done.content
    assert done.json()["state"] == "void" and done.json()["void"]["note"] == "记错桌"
    log = chief.get(reverse("api_match_rulings", args=[match.pk])).json()["rulings"]
    assert [r["state"] for r in log] == ["in_force", "void", "in_force", "in_force"]
    assert "判负" not in log[3]["explanation"]
    assert chief.get(reverse("api_ruling_void_preview", args=[noise.pk])).status_code == 400


def test_a_void_that_would_rewrite_a_begun_next_match_is_refused_and_nothing_is_stored(knockout):  # noqa: F811
    """003 二.14: 15 minutes late is a forfeit at once (the winner goes on); once the winner's next match has begun,
    voiding the lateness would take that match's entrant away: refused (409, naming the match), nothing stored."""
    event, stage, _reserves, users = knockout
    match = _first(stage)[0]
    late = services.record_ruling(match, users["chief"], "late", "NS", minutes=15)
    stored = _stored(match)
    following = Match.objects.filter(round__stage=stage, round__number=2).filter(
        ns_source=f"W:{stored.bracket_key}").first() or Match.objects.get(
        round__stage=stage, round__number=2, ew_source=f"W:{stored.bracket_key}")
    Match.objects.filter(pk=following.pk).update(status=Match.Status.PLAYING, started_at=stored.finished_at)
    impact = previews.void_impact(Ruling.objects.get(pk=late.pk))
    assert impact["reopens"] and impact["refused"]
    assert any(describe_key(following.bracket_key) in line and "已开始" in line for line in impact["text"]), impact["text"]
    api = APIClient()
    api.force_authenticate(users["chief"])
    refused = api.post(reverse("api_ruling_void", args=[late.pk]), {"reason": "看错表"}, format="json")
    assert refused.status_code == 409, refused.content
    assert describe_key(following.bracket_key) in refused.json()["detail"]
    assert not RulingVoid.objects.exists()
    stored = _stored(match)
    assert (stored.status, stored.winner_id) == (Match.Status.FORFEIT, stored.ew_id)
    assert check_match(stored) == []

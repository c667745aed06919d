"""A suspension or disqualification lifted: when the ruling that removed a pair (000 第十七条（八）) is voided,
reversed or amended on appeal, the pair is back in the event, its later matches not yet begun are played
after all (no longer walkovers), a match already begun keeps its result, and the lifting is recorded
(PairRestoration: who, when, why; the removal row stays)."""
import pytest

from rulings import appeals as appeals_
from rulings import services as rulings
from tournament.models import Group, Match, Pair, PairRestoration, Round


@pytest.fixture
def removed(table, frozen_now):
    """EW suspended by an approved 传递非法信息 ruling; a later group match of the same pairs was a walkover."""
    match, users = table
    group = Group.objects.create(stage=match.round.stage, name="A", order=1)
    Match.objects.filter(pk=match.pk).update(group=group)
    later = Match.objects.create(round=Round.objects.create(stage=match.round.stage, number=2), table=1,
                                 ns=match.ew, ew=match.ns, profile=match.profile, group=group)
    match.refresh_from_db()
    ruling = rulings.record_ruling(match, users["referee"], "signal", "EW", choice="disqualification")
    rulings.approve(ruling, users["chief"], approved=True)
    later.refresh_from_db()
    assert later.status == Match.Status.WALKOVER and Pair.objects.get(pk=match.ew_id).status == "suspended"
    return match, later, users, ruling


def test_voiding_the_ruling_restores_the_pair_and_its_later_match_is_played(removed):
    match, later, users, ruling = removed
    rulings.void_ruling(ruling, users["chief2"], reason="录像显示并无暗号")
    later.refresh_from_db()
    match.refresh_from_db()
    pair = Pair.objects.get(pk=match.ew_id)
    assert pair.status == "active" and "停赛" not in str(pair)
    assert (later.status, later.winner_id, later.result_note) == (Match.Status.SCHEDULED, None, "")
    assert match.status != Match.Status.FORFEIT and match.winner_id is None   # the forfeit went with the ruling
    restoration = PairRestoration.objects.get(removal__pair=pair)
    assert (restoration.decided_by, restoration.reason) == (users["chief2"], "录像显示并无暗号")
    assert restoration.removal.ruling_id == ruling.pk                          # the removal row is kept


def test_a_match_already_begun_keeps_what_happened(removed):
    match, later, users, ruling = removed
    Match.objects.filter(pk=later.pk).update(started_at=ruling.recorded_at)   # the walkover was begun upon
    rulings.void_ruling(ruling, users["chief2"])
    later.refresh_from_db()
    assert later.status == Match.Status.WALKOVER
    assert Pair.objects.get(pk=match.ew_id).status == "active"


def test_a_reversal_on_appeal_restores_the_pair_too(removed):
    match, later, users, ruling = removed
    appeal = appeals_.file_appeal(ruling, users["referee"], "EW", "没有传递信息")
    appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="reversed")
    later.refresh_from_db()
    assert Pair.objects.get(pk=match.ew_id).status == "active"
    assert later.status == Match.Status.SCHEDULED


def test_upholding_on_appeal_keeps_the_pair_out(removed):
    match, later, users, ruling = removed
    appeal = appeals_.file_appeal(ruling, users["referee"], "EW")
    appeals_.decide_appeal(appeal, users["chief2"], instance=1, outcome="upheld")
    assert Pair.objects.get(pk=match.ew_id).status == "suspended"
    assert not PairRestoration.objects.exists()


def test_a_pair_removed_again_after_a_restoration_is_recorded_twice(removed):
    match, later, users, ruling = removed
    rulings.void_ruling(ruling, users["chief2"])
    again = rulings.record_ruling(match, users["chief"], "signal", "EW", choice="disqualification")
    pair = Pair.objects.get(pk=match.ew_id)
    assert pair.status == "suspended" and pair.removals.count() == 2 and pair.removal.ruling_id == again.pk

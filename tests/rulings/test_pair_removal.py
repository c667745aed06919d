"""Suspension (停赛, 000 第十七条（八）) and disqualification remove the pair from the event's remaining play:
its matches still to play become walkovers (like a withdrawal) and every page shows its status."""
import pytest
from rest_framework.test import APIClient

from common.errors import ConflictError, ForbiddenError
from rulings import services as rulings
from tournament.entries import removals
from tournament.models import Group, Match, Pair, Round


@pytest.fixture
def grouped(table):
    """The rulings table's match in a group, plus a later round where the same pairs meet again."""
    match, users = table
    group = Group.objects.create(stage=match.round.stage, name="A", order=1)
    Match.objects.filter(pk=match.pk).update(group=group)
    later = Match.objects.create(round=Round.objects.create(stage=match.round.stage, number=2), table=1,
                                 ns=match.ew, ew=match.ns, profile=match.profile, group=group)
    match.refresh_from_db()
    return match, later, users


def test_a_chief_suspends_a_pair_and_its_remaining_matches_are_walkovers(grouped):
    match, later, users = grouped
    row = removals.remove_pair(match.ns, users["chief"], kind=Pair.Status.SUSPENDED, reason="传递非法信息")
    later.refresh_from_db()
    match.ns.refresh_from_db()
    assert (later.status, later.winner_id) == (Match.Status.WALKOVER, match.ew_id)
    assert match.ns.status == "suspended" and "停赛" in str(match.ns)
    assert row.decided_by == users["chief"] and row.reason == "传递非法信息"
    with pytest.raises(ConflictError):
        removals.remove_pair(match.ns, users["chief"], kind=Pair.Status.DISQUALIFIED)


def test_only_a_chief_referee_removes_a_pair(grouped):
    match, _, users = grouped
    for who in ("referee", "organiser"):
        with pytest.raises(ForbiddenError):
            removals.remove_pair(match.ns, users[who], kind=Pair.Status.DISQUALIFIED)
    assert Pair.objects.get(pk=match.ns_id).status == "active"


def test_an_approved_suspension_ruling_removes_the_pair_from_the_event(grouped):
    """000 第十七条（八） 传递非法信息 … 停赛: approved by the chief referee, it reaches past the match."""
    match, later, users = grouped
    ruling = rulings.record_ruling(match, users["referee"], "signal", "EW", choice="disqualification")
    assert Pair.objects.get(pk=match.ew_id).status == "active"          # a proposal waits for the chief
    rulings.approve(ruling, users["chief"], approved=True)
    match.refresh_from_db()
    later.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.FORFEIT, match.ns_id)
    assert Pair.objects.get(pk=match.ew_id).status == "suspended"
    assert (later.status, later.winner_id) == (Match.Status.WALKOVER, match.ns_id)
    assert Pair.objects.get(pk=match.ew_id).removal.ruling_id == ruling.pk


def test_the_api_and_the_pages_say_so(grouped, client):
    match, later, users = grouped
    api = APIClient()
    api.force_authenticate(users["referee"])
    url = f"/api/pairs/{match.ew_id}/removal/"
    assert api.post(url, {"kind": "disqualified"}, format="json").status_code == 403
    api.force_authenticate(users["chief"])
    answer = api.post(url, {"kind": "disqualified", "reason": "作弊"}, format="json")
    assert answer.status_code == 201 and answer.json()["status"] == "disqualified"
    assert api.post(url, {"kind": "disqualified"}, format="json").status_code == 409
    name = Pair.objects.get(pk=match.ew_id).name
    html = client.get(f"/tables/{later.pk}/").content.decode()          # the public table page
    assert f"{name}（取消资格）" in html or f"{name} (取消资格)" in html
    client.force_login(users["chief"])
    page = client.get(f"/manage/{match.round.stage.event.slug}/entries/{match.ew_id}/remove/").content.decode()
    assert "取消资格" in page and "作弊" in page


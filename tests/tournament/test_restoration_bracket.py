"""A removal lifted in a knock-out: the pair's first-round walkover, not begun, is played after all; once the
next match has begun the walkover stands (issue #13: 停赛/取消资格 lifted when its ruling no longer stands)."""
from tests.tournament.test_reserve_substitution import _first, knockout  # noqa: F401
from tournament.entries import removals
from tournament.models import Match, Pair


def test_a_lifted_removal_gives_the_knockout_match_back(knockout):  # noqa: F811
    event, stage, reserves, users = knockout
    match = _first(stage)[0]
    removal = removals.remove_pair(match.ns, users["chief"], kind=Pair.Status.DISQUALIFIED, reason="作弊")
    match.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.WALKOVER, match.ew_id)
    removals.restore_pair(removal, users["chief"], reason="查无实据")
    match.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.SCHEDULED, None)
    assert Pair.objects.get(pk=match.ns_id).status == "active"


def test_the_walkover_stands_once_the_next_match_has_begun(knockout):  # noqa: F811
    event, stage, reserves, users = knockout
    match = _first(stage)[0]
    removal = removals.remove_pair(match.ns, users["chief"], kind=Pair.Status.DISQUALIFIED)
    match.refresh_from_db()
    nxt = Match.objects.filter(round__stage=stage, round__number=2).filter(ns=match.ew_id) | \
        Match.objects.filter(round__stage=stage, round__number=2).filter(ew=match.ew_id)
    nxt = nxt.get()
    Match.objects.filter(pk=nxt.pk).update(status=Match.Status.PLAYING, started_at=removal.decided_at)
    removals.restore_pair(removal, users["chief"])
    match.refresh_from_db()
    assert (match.status, match.winner_id) == (Match.Status.WALKOVER, match.ew_id)


def test_the_removal_page_lifts_it(knockout, client):  # noqa: F811
    event, stage, reserves, users = knockout
    match = _first(stage)[0]
    removals.remove_pair(match.ns, users["chief"], kind=Pair.Status.SUSPENDED, reason="迟到")
    client.force_login(users["chief"])
    url = f"/manage/{event.slug}/entries/{match.ns_id}/remove/"
    assert "撤销停赛或取消资格" in client.get(url).content.decode()
    assert client.post(url, {"action": "lift", "reason": "误判"}).status_code == 302
    assert Pair.objects.get(pk=match.ns_id).status == "active"
    assert Pair.objects.get(pk=match.ns_id).removal.restoration.reason == "误判"

"""A removal lifted in a knock-out: the pair's first-round walkover, not begun, is played after all; once the
next match has begun the walkover stands (issue #13: 停赛/取消资格 lifted when its ruling no longer stands)."""
from django.utils import translation

from tests.tournament.test_draws_support import make_event
from tests.tournament.test_reserve_substitution import _first, knockout  # noqa: F401
from tournament.competition import draws, stages
from tournament.entries import removals
from tournament.models import Match, Pair
from tournament.printouts import standings as standings_printout
from tournament.printouts.common import PrintOptions


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


def test_the_group_table_labels_a_removed_pair(client, make_user):
    """000 第十七条（八）: the group table (and its printout) shows 停赛 / 取消资格 next to a removed pair."""
    event = make_event(4, 4, fmt="round_robin")
    stage = stages.create_stage(event, "round_robin", settings={"n_groups": 1})
    draws.draw_groups(stage, seed="s")
    chief = make_user("chief_referee")
    first, second = Pair.objects.filter(event=event).order_by("pk")[:2]
    html = client.get(f"/events/{event.slug}/groups/").content.decode()
    assert 'class="tag off removed"' not in html
    removals.remove_pair(first, chief, kind=Pair.Status.DISQUALIFIED)
    removals.remove_pair(second, chief, kind=Pair.Status.SUSPENDED)
    html = client.get(f"/events/{event.slug}/groups/").content.decode()
    assert '<span class="tag off removed">取消资格</span>' in html and '<span class="tag off removed">停赛</span>' in html
    with translation.override("zh-hans"):
        lines = standings_printout.collect(event, PrintOptions()).stages[0][2][0].lines
    assert {line.name for line in lines} >= {f"{first.name}（取消资格）", f"{second.name}（停赛）"}

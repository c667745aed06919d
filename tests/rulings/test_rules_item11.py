"""Issue 28 item 11: three readings of 003 and 004.

- 003 二.13 "传递三次者将直接被罚出局，裁判长有权责令其退出本次比赛": the third signal puts the pair out of the
  match at once; leaving the whole event is the chief referee's option, not automatic.
- 004 一.4 "若积分相同，则首先比较各队的净胜点数": how many levels a forfeit or walkover counts for is not
  written; the profile's rule is the named default walkover_levels.
- 003 二.2 "抽签决定对家": drawing opponents (units enter fixed pairs), not partners.
"""
import pytest

from rulings import services
from rulings.engine import PenaltyLedger
from scoring.profiles import load_profile
from tournament.competition.standings_rows import standings_config
from tournament.engines.standings import MatchResult, compute_standings
from tournament.models import Match, Pair

UG = "union-games"


def test_the_third_signal_is_out_of_the_match_and_the_event_is_the_chiefs_option():
    """003 二.13 直接被罚出局 (no approval), 裁判长有权责令其退出本次比赛 (the chief's option)."""
    book = PenaltyLedger(load_profile(UG))
    first, second, third = (book.record("signal", "EW") for _ in range(3))
    assert (first.points, second.points) == (50, 50)
    assert third.kinds == {"match_forfeit"} and not third.needs_approval and third.automatic
    book = PenaltyLedger(load_profile(UG))
    for _ in range(2):
        book.record("signal", "EW")
    out_of_event = book.record("signal", "EW", choice="event")
    assert out_of_event.kinds == {"disqualification"} and out_of_event.needs_approval
    assert "裁判长责令退出本次比赛" in out_of_event.explanation


@pytest.mark.django_db
def test_the_third_signal_ends_the_match_and_the_pair_stays_in_the_event(make_match, make_user):
    """003 二.13: the referee's third signal ends the match for the other side; the pair plays on in the event
    unless the chief referee orders it out (a disqualification he approves)."""
    match = make_match(UG)
    referee, chief = make_user("table_referee"), make_user("chief_referee")
    match.referees.add(referee)
    for _ in range(3):
        services.record_ruling(match, referee, "signal", "EW")
    match.refresh_from_db()
    assert match.status == Match.Status.FORFEIT and match.winner_id == match.ns_id
    assert Pair.objects.get(pk=match.ew_id).status == Pair.Status.ACTIVE

    other = make_match(UG)
    other.referees.add(referee)
    for _ in range(2):
        services.record_ruling(other, referee, "signal", "EW")
    ruling = services.record_ruling(other, referee, "signal", "EW", choice="event")
    assert Pair.objects.get(pk=other.ew_id).status == Pair.Status.ACTIVE       # waits for the chief
    services.approve(ruling, chief, approved=True)
    assert Pair.objects.get(pk=other.ew_id).status == Pair.Status.DISQUALIFIED


@pytest.mark.parametrize("slug", ["company-league", "company-league-2008"])
def test_walkover_levels_is_a_named_default_with_both_readings(slug):
    """004 一.4 净胜点数: a walkover's levels are not written. Default largest_margin: C's walkover win over A
    counts as the group's largest played margin (A v 5 = 9); recorded: the levels recorded (2 v 2 = 0)."""
    results = [MatchResult("A", "B", "A", "A", "5"), MatchResult("C", "D", "C", "K", "J"),
               MatchResult("A", "C", "C", "2", "2", True)]
    assert load_profile(slug).reading("walkover_levels") == "largest_margin"
    for reading, net in (("largest_margin", 2 + 9), ("recorded", 2 + 0)):
        profile = load_profile(slug, choices={"walkover_levels": reading})
        config = standings_config(profile.data)
        rows = {r.entry: r for r in compute_standings("ABCD", results, **config).rows}
        assert rows["C"].values["net_levels"] == net, reading


def test_union_draws_opponents_not_partners():
    """003 二.2 抽签决定对家: the draw is of opponents; units enter fixed pairs (no partner draw)."""
    assert load_profile(UG).format["partners_by_lot"] is False
    labels = [r["label"] for r in load_profile(UG).choice_specs["lateness_at_draw"]["readings"].values()]
    assert "抽签决定对手" in labels[0] and "对家" not in labels[0].replace("抽签决定对家", "")

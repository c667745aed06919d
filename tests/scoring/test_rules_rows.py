"""RULES.md rows of the profile data not pinned elsewhere: ladders, must-play lists, time and end
of match, formats and standings, and the 2008 A capture (see tests/RULES_COVERAGE.md)."""
import pytest

from scoring.engine import LastTrick, MatchState, settle_hand
from scoring.profiles import load_profile

SZ, TD, UG, CL, CL8 = ("shenzhen-community", "two-deck-standard", "union-games", "company-league",
                       "company-league-2008")
ALL = (SZ, TD, UG, CL, CL8)
BASE = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


@pytest.mark.parametrize("slug", ALL)
def test_ladder_runs_2_to_a_and_only_company_league_adds_joker(slug):
    p = load_profile(slug)
    assert p.ladder == (BASE + ("JOKER",) if slug == CL else BASE)
    assert p.ladder[p.start] == "2" and p.ladder[p.top] == p.ladder[-1]


@pytest.mark.parametrize("slug, levels", [(SZ, {"2", "J", "A"}), (CL, {"J", "A", "JOKER"}),
                                          (CL8, {"J", "A"}), (TD, set()), (UG, set())])
def test_must_play_levels(slug, levels):
    p = load_profile(slug)
    assert {p.ladder[i] for i in p.must_play} == levels


@pytest.mark.parametrize("slug, stops", [(CL8, True), (TD, False), (UG, False)])
def test_must_play_j_stops_a_climb_only_where_listed(slug, stops):
    r = settle_hand(load_profile(slug), declarer_level="10", defender_level="3", defender_points=0)
    assert r.declarer_level == ("J" if stops else "K")   # 0 points: declarers +3 from 10


def test_company_league_2008_a_captured_with_any_a_goes_to_j():
    p = load_profile(CL8)
    for trump in (True, False):
        lt = LastTrick("defenders", "single", trump=True, rank="A", main_rank=trump)
        r = settle_hand(p, declarer_level="A", defender_level="5", defender_points=70,
                        bottom_points=10, last_trick=lt)
        assert r.declarer_level == "J" and not r.declarer_keeps and r.rank_capture


@pytest.mark.parametrize("slug, minutes, announce, time_up", [
    (SZ, 90, (30, 3, False), ("higher_level", "on_stage")),
    (TD, 60, (10, 1, False), ("higher_level", "on_stage")),
    (UG, 120, None, ("higher_level", "on_stage")),
    (CL, None, None, ("higher_level", "on_stage")),      # no limit written: organiser choice time_up
    (CL8, None, None, ("higher_level", "on_stage")),
])
def test_time_and_end_of_match(slug, minutes, announce, time_up):
    p = load_profile(slug)
    got = p.announce and (p.announce.minutes_before_end, p.announce.hands_after, p.announce.hand_in_play_counts)
    assert (p.match_minutes, got, p.time_up) == (minutes, announce, time_up)


@pytest.mark.parametrize("slug", (CL, CL8))
def test_company_league_under_an_organiser_clock_has_a_winner_at_time(slug):
    """004 一.3 比赛以一轮定胜负 (no time limit written): the organiser choice ``time_up`` decides."""
    p = load_profile(slug)
    assert p.choice_specs["time_up"]["default"] == "higher_level_then_stage"
    state = MatchState.new(p, levels={"NS": "9", "EW": "5"}, declarer="E")
    assert state.winner_at_time() == "NS"                                  # higher level
    assert MatchState.new(p, levels={"NS": "5", "EW": "5"}, declarer="N").winner_at_time() == "NS"  # on stage
    other = load_profile(slug, choices={"time_up": "no_winner"})
    assert MatchState.new(other, levels={"NS": "9", "EW": "5"}, declarer="E").winner_at_time() is None


def test_two_deck_time_up_uses_higher_level_then_side_on_stage():
    p = load_profile(TD)
    assert MatchState.new(p, levels={"NS": "4", "EW": "9"}, declarer="N").winner_at_time() == "EW"
    assert MatchState.new(p, levels={"NS": "9", "EW": "9"}, declarer="W").winner_at_time() == "EW"


@pytest.mark.parametrize("slug, stages, partners_by_lot, rank_all_of", [
    (SZ, ["timed_matches", "single_elimination"], False, 8),
    (UG, ["single_elimination"], False, None),     # 003 二.2 抽签决定对家: opponents drawn (issue 28)
    (CL, ["groups_round_robin", "qualifiers_round_robin"], True, 3),
    (CL8, ["round_robin"], False, 2),
])
def test_formats(slug, stages, partners_by_lot, rank_all_of):
    f = load_profile(slug).format
    assert (f["stages"], f["partners_by_lot"], f["rank_all_of"]) == (stages, partners_by_lot, rank_all_of)


@pytest.mark.parametrize("slug", ALL)
def test_seats_by_lot_on_request_everywhere(slug):
    assert load_profile(slug).format["seats_by_lot_on_request"] is True


def test_union_games_awards_and_roles():
    f = load_profile(UG).format
    # 003 三; fourth_place: the 4th place after an organiser's 3rd-place match (issue 45 item 4), a merit award
    assert f["awards"] == {"champion": 1, "runner_up": 1, "third": 2, "merit": 4, "commemorative": True,
                           "fourth_place": "merit"}
    assert f["roles"] == ["arbitration_group", "referee_group", "logistics_group"]


def test_company_league_awards_champion_runner_up_third():
    awards = load_profile(CL).format["awards"]
    assert (awards["champion"], awards["runner_up"], awards["third"]) == (1, 1, 1)


@pytest.mark.parametrize("slug, tie_break", [
    (CL, ("points", "net_levels", "total_levels", "lot")),
    (CL8, ("points", "net_levels", "shared_place")),
])
def test_standings_win_3_loss_0_and_tie_breaks(slug, tie_break):
    p = load_profile(slug)
    assert (p.standings["win"], p.standings["loss"], p.tie_break) == (3, 0, tie_break)

"""Bottom multipliers, captures, J/A rules, must-play stops, rotation, time-up and bad input."""
import pytest

from scoring.engine import LastTrick, MatchState, bottom_multiplier, settle_hand
from scoring.profiles import load_profile
from tests.conftest import refused

SLUGS = ["shenzhen-community", "two-deck-standard", "union-games", "company-league",
         "company-league-2008"]


def settle(slug, d, f, points, **kw):
    return settle_hand(load_profile(slug), declarer_level=d, defender_level=f, defender_points=points, **kw)


def at(slug, ns, ew, declarer="N"):
    return MatchState.new(load_profile(slug), levels={"NS": ns, "EW": ew}, declarer=declarer)


# ----------------------------------------------------------------------------- bottom
@pytest.mark.parametrize("slug,shape,pairs,trump,expected", [
    ("shenzhen-community", "single", 1, True, 2), ("shenzhen-community", "pair", 1, True, 4),
    ("shenzhen-community", "tractor", 2, True, 8), ("shenzhen-community", "tractor", 3, False, 12),
    ("two-deck-standard", "single", 1, False, 2), ("two-deck-standard", "pair", 1, True, 3),
    ("two-deck-standard", "tractor", 2, True, 4), ("two-deck-standard", "tractor", 3, False, 5),
    ("union-games", "single", 1, True, 2), ("union-games", "pair", 1, True, 4),
    ("union-games", "tractor", 2, True, 8), ("union-games", "tractor", 3, True, 12),
    ("union-games", "single", 1, False, 0), ("union-games", "tractor", 2, False, 0),
    ("company-league", "single", 1, True, 2), ("company-league", "pair", 2, True, 4),
    ("company-league", "tractor", 2, True, 8), ("company-league", "tractor", 3, True, 12),
    ("company-league-2008", "pair", 1, False, 4), ("company-league-2008", "tractor", 2, True, 8),
])
def test_bottom_multiplier(slug, shape, pairs, trump, expected):
    assert bottom_multiplier(load_profile(slug), shape, pairs, trump) == expected


def test_bottom_multiplied_in_when_defenders_win_last_trick():
    r = settle("shenzhen-community", "5", "5", 60, bottom_points=10,
               last_trick=LastTrick("defenders", "tractor", 2))
    assert r.defender_points == 140 and r.bottom_multiplier == 8 and r.levels_gained == 3
    assert r.explanation[0] == "防家抠底：底分10×8=80，防家得分60→140"
    kept = settle("shenzhen-community", "5", "5", 60, bottom_points=10,
                  last_trick=LastTrick("declarers", "single"))
    assert kept.defender_points == 60 and kept.declarer_keeps


def test_union_games_only_trump_captures():
    r = settle("union-games", "5", "5", 60, bottom_points=20,
               last_trick=LastTrick("defenders", "pair", trump=False))
    assert r.defender_points == 60 and r.declarer_keeps
    assert "副牌不能抠底，底分不计" in r.explanation
    r = settle("union-games", "5", "5", 60, bottom_points=20, last_trick=LastTrick("defenders", "pair"))
    assert r.defender_points == 140


@pytest.mark.parametrize("slug", ["company-league", "company-league-2008"])
def test_capture_of_attackers_bottom_subtracts(slug):
    r = settle(slug, "5", "5", 90, bottom_points=20,
               last_trick=LastTrick("declarers", "pair", buried_by="defenders"))
    assert r.defender_points == 10 and r.declarer_keeps
    # the attackers keep their own bottom: no change
    r = settle(slug, "5", "5", 90, bottom_points=20,
               last_trick=LastTrick("defenders", "pair", buried_by="defenders"))
    assert r.defender_points == 90


@pytest.mark.parametrize("slug", ["shenzhen-community", "two-deck-standard", "union-games"])
def test_defenders_cannot_bury_elsewhere(slug):
    with refused("last_trick.buried_by"):
        settle(slug, "5", "5", 90, bottom_points=20,
               last_trick=LastTrick("declarers", "pair", buried_by="defenders"))


# ----------------------------------------------------------------------------- J/A capture
@pytest.mark.parametrize("points", [0, 40, 150])
def test_shenzhen_j_capture_restarts_from_2_whatever_the_points(points):
    r = settle("shenzhen-community", "J", "5", points, declarer_seat="N",
               last_trick=LastTrick("defenders", "single", rank="J", trump=False))
    assert r.declarer_keeps and r.declarer_level == "2" and r.defender_level == "5"
    assert r.next_declarer == "S" and r.rank_capture and r.must_play_waived
    assert r.policy_next == "J"


def test_shenzhen_a_capture_restarts_from_j():
    r = settle("shenzhen-community", "A", "9", 120, declarer_seat="E",
               last_trick=LastTrick("defenders", "pair", rank="A"))
    assert r.declarer_keeps and r.declarer_level == "J" and r.defender_level == "9"
    assert r.next_declarer == "W" and r.policy_next == "A" and not r.must_play_waived


def test_shenzhen_capture_needs_matching_rank_and_defenders():
    r = settle("shenzhen-community", "J", "5", 120, last_trick=LastTrick("defenders", "single", rank="A"))
    assert not r.rank_capture and not r.declarer_keeps and r.defender_level == "7"
    r = settle("shenzhen-community", "J", "5", 20, last_trick=LastTrick("declarers", "single", rank="J"))
    assert not r.rank_capture and r.declarer_level == "A"   # J+3 = A


def test_shenzhen_policy_reclaim():
    s1 = at("shenzhen-community", "J", "5").play(
        defender_points=20, last_trick=LastTrick("defenders", "single", rank="J"))
    assert s1.levels == {"NS": "2", "EW": "5"} and s1.declarer == "S" and s1.policy_pending == "J"
    reclaimed = s1.play(defender_points=35, reclaim=True)
    assert reclaimed.levels == {"NS": "J", "EW": "5"} and reclaimed.declarer == "N"
    assert reclaimed.hands[-1].policy_applied and reclaimed.policy_pending is None
    declined = s1.play(defender_points=35)
    assert declined.levels == {"NS": "5", "EW": "5"} and declined.hands[-1].policy_available
    with refused("reclaim"):
        s1.play(defender_points=40, reclaim=True)
    with refused("reclaim"):
        declined.play(defender_points=0, reclaim=True)      # only the hand right after


def test_shenzhen_2_not_must_play_after_restart():
    s1 = at("shenzhen-community", "J", "5").play(
        defender_points=20, last_trick=LastTrick("defenders", "single", rank="J"))
    s2 = s1.play(defender_points=80)                         # EW take the stage, E declares
    assert s2.declarer == "E" and s2.levels == {"NS": "2", "EW": "5"}
    s3 = s2.play(defender_points=120)                        # NS leave 2 on a take-over
    assert s3.levels == {"NS": "4", "EW": "5"}
    # without the restart, 2 is must-play: NS stay on 2 and EW give back 2
    plain = at("shenzhen-community", "2", "5", declarer="E").play(defender_points=120)
    assert plain.levels == {"NS": "2", "EW": "3"}
    assert plain.hands[-1].explanation[:3] == ["防家得分120，上台并升2级", "2必打，须坐庄打过2，停在2",
                                               "少升2级由庄家方退回：5→3"]


@pytest.mark.parametrize("trump,main_rank,no_trump,expected", [
    (True, None, False, "2"),        # 主J
    (False, None, False, "6"),       # 副J
    (True, False, False, "6"),       # a trump play with a 副J, said explicitly
    (False, None, True, "2"),        # no-trump: every J counts as 主J
])
def test_company_league_j_capture(trump, main_rank, no_trump, expected):
    lt = LastTrick("defenders", "pair", trump=trump, rank="J", main_rank=main_rank, no_trump=no_trump)
    r = settle("company-league", "J", "5", 60, bottom_points=10, last_trick=lt)
    assert r.defender_points == 100 and r.rank_capture
    assert not r.declarer_keeps and r.declarer_level == expected and r.defender_level == "5"


def test_company_league_j_capture_needs_80_including_bottom():
    r = settle("company-league", "J", "5", 40, bottom_points=5,
               last_trick=LastTrick("defenders", "pair", rank="J"))
    assert r.defender_points == 60 and not r.rank_capture
    assert r.declarer_keeps and r.declarer_level == "Q"


def test_company_league_a_capture_and_give_back_floor():
    r = settle("company-league", "A", "5", 80, last_trick=LastTrick("defenders", "single", rank="A",
                                                                    trump=False))
    assert r.declarer_level == "J" and r.defender_level == "5"
    # 主J capture, defenders at 10 gain 2 but stop at J: 1 level back from 2 stays at 2
    r = settle("company-league", "J", "10", 100, bottom_points=15,
               last_trick=LastTrick("defenders", "pair", rank="J"))
    assert r.defender_points == 160 and r.defender_level == "J" and r.declarer_level == "2"
    assert r.levels_given_back == 1


@pytest.mark.parametrize("trump", [True, False])
def test_company_league_2008_any_j_to_2(trump):
    r = settle("company-league-2008", "J", "5", 80,
               last_trick=LastTrick("defenders", "single", rank="J", trump=trump))
    assert r.declarer_level == "2" and r.defender_level == "5"
    r = settle("company-league-2008", "A", "5", 90,
               last_trick=LastTrick("defenders", "single", rank="A", trump=trump))
    assert r.declarer_level == "J"


@pytest.mark.parametrize("slug", ["two-deck-standard", "union-games"])
def test_no_ja_rule_elsewhere(slug):
    r = settle(slug, "J", "5", 60, last_trick=LastTrick("defenders", "single", rank="J"))
    assert not r.rank_capture and r.declarer_keeps and r.declarer_level == "Q"


# ----------------------------------------------------------------------------- must-play
def test_seed_example_must_play_give_back():
    r = settle("shenzhen-community", "6", "10", 140)
    assert (r.declarer_keeps, r.defender_level, r.declarer_level) == (False, "J", "4")
    assert r.explanation == ["防家得分140，上台并升3级", "J必打，停在J", "少升2级由庄家方退回：6→4"]


def test_must_play_vice_versa_for_declarers():
    r = settle("shenzhen-community", "9", "5", 0)
    assert r.declarer_level == "J" and r.defender_level == "3" and r.levels_given_back == 2


def test_give_back_never_below_2():
    r = settle("shenzhen-community", "3", "2", 160)
    assert r.defender_level == "2" and r.declarer_level == "2"
    assert "少升4级由庄家方退回：3→2（退至最低级为止）" in r.explanation


def test_declarers_on_must_play_leave_it_by_winning():
    r = settle("shenzhen-community", "J", "5", 20)
    assert r.declarer_level == "A" and r.levels_given_back == 0
    r = settle("shenzhen-community", "J", "5", 0)
    assert r.declarer_level == "A" and r.defender_level == "4"


def test_company_league_2_not_must_play_and_joker_is():
    r = settle("company-league", "6", "2", 160)
    assert r.defender_level == "4"
    r = settle("company-league", "K", "5", 0)
    assert r.declarer_level == "A" and r.defender_level == "3"
    r = settle("company-league", "A", "5", 40)
    assert r.declarer_level == "JOKER" and not r.match_won


def test_top_stops_without_give_back_when_not_must_play():
    r = settle("two-deck-standard", "K", "5", 0)
    assert r.declarer_level == "A" and r.defender_level == "5" and not r.match_won
    assert "升到A为止：K→A" in r.explanation


# ----------------------------------------------------------------------------- match
@pytest.mark.parametrize("slug,top", [(s, "JOKER" if s == "company-league" else "A") for s in SLUGS])
def test_match_won_passing_the_top(slug, top):
    s = at(slug, "5", top, declarer="W").play(defender_points=75)
    assert s.winner == "EW" and s.hands[-1].match_won and s.levels["EW"] == top
    assert s.winner_at_time() == "EW"
    with refused("hand"):
        s.play(defender_points=50)
    lost = at(slug, "5", top, declarer="W").play(defender_points=80)
    assert lost.winner is None and lost.declarer == "S"


def test_rotation_counter_clockwise():
    p = load_profile("two-deck-standard")
    s = MatchState.new(p).play(defender_points=90, declarer="N")
    assert s.declarer == "W"                               # N's 下家
    s = s.play(defender_points=90)
    assert s.declarer == "S"
    s = s.play(defender_points=90, declarer="S")
    assert s.declarer == "E"
    s = s.play(defender_points=50)
    assert s.declarer == "W"                               # E's partner
    s = s.play(defender_points=90)
    assert s.declarer == "S" and s.levels == {"NS": "2", "EW": "3"}
    assert len(s.hands) == 5 and s.hands[3].explanation[-1] == "下一副由W坐庄（E的对家）"


def test_declarer_contradicting_rotation_and_missing_first_declarer():
    p = load_profile("shenzhen-community")
    with refused("declarer"):
        MatchState.new(p).play(defender_points=50)
    s = MatchState.new(p).play(defender_points=50, declarer="E")
    with refused("declarer"):
        s.play(defender_points=50, declarer="E")
    with refused("declarer"):
        MatchState.new(p).play(defender_points=50, declarer="X")


@pytest.mark.parametrize("slug,ns,ew,declarer,expected", [
    ("shenzhen-community", "7", "5", "E", "NS"),           # higher level
    ("shenzhen-community", "7", "7", "E", "EW"),           # equal: side on stage
    ("two-deck-standard", "5", "5", "N", "NS"),
    ("union-games", "3", "Q", "N", "EW"),
    ("union-games", "Q", "Q", "W", "EW"),
    ("company-league", "7", "5", "E", "NS"),               # no limit written: organiser choice time_up
    ("company-league-2008", "5", "5", "E", "EW"),
])
def test_winner_at_time(slug, ns, ew, declarer, expected):
    assert at(slug, ns, ew, declarer).winner_at_time() == expected


def test_winner_at_time_without_declarer_and_equal_levels():
    assert MatchState.new(load_profile("shenzhen-community")).winner_at_time() is None


def test_states_are_immutable():
    s = MatchState.new(load_profile("shenzhen-community"))
    s2 = s.play(defender_points=50, declarer="N")
    assert s.hands == () and s.declarer is None and len(s2.hands) == 1
    with pytest.raises(AttributeError):
        s.declarer = "N"


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs,field", [
    ({"declarer_level": "JOKER"}, "declarer_level"),
    ({"defender_level": "1"}, "defender_level"),
    ({"defender_points": 37}, "defender_points"),
    ({"defender_points": 405}, "defender_points"),
    ({"defender_points": -205}, "defender_points"),
    ({"defender_points": 205}, "defender_points"),      # trick points are 0..200 (two decks)
    ({"defender_points": -5}, "defender_points"),
    ({"bottom_points": 85}, "bottom_points"),           # 8 bottom cards hold at most 80
    ({"defender_points": "80"}, "defender_points"),
    ({"bottom_points": 3}, "bottom_points"),
    ({"bottom_points": -5}, "bottom_points"),
    ({"declarer_seat": "X"}, "declarer_seat"),
    ({"penalty_points": 7}, "penalty_points"),
    ({"defender_points": 200, "penalty_points": 205}, "penalty_points"),   # final 405: off the table
    ({"last_trick": "pair"}, "last_trick"),
])
def test_bad_hand_input(kwargs, field):
    args = {"declarer_level": "5", "defender_level": "5", "defender_points": 80, **kwargs}
    with refused(field):
        settle_hand(load_profile("shenzhen-community"), **args)


@pytest.mark.parametrize("args,field", [
    (("defenders", "tractor", 1), "last_trick.pairs"),
    (("defenders", "bomb"), "last_trick.shape"),
    (("both", "single"), "last_trick.by"),
    (("defenders", "single", 1, True, "1"), "last_trick.rank"),
])
def test_bad_last_trick(args, field):
    with refused(field):
        LastTrick(*args)


def test_bad_bottom_multiplier_input():
    p = load_profile("shenzhen-community")
    with refused("bottom_multiplier.pairs"):
        bottom_multiplier(p, "tractor", 1)
    with refused("bottom_multiplier.shape"):
        bottom_multiplier(p, "quad")
    with refused("bottom_multiplier.cards"):      # a throw (issue 45) names its cards
        bottom_multiplier(p, "throw")


def test_bad_start_position():
    p = load_profile("shenzhen-community")
    with refused("levels.EW"):
        MatchState.new(p, levels={"NS": "2", "EW": "JOKER"})
    with refused("levels"):
        MatchState.new(p, levels={"NS": "2"})

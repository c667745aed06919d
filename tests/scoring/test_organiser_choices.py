"""Named organiser choices (readings of unclear clauses, see tests/discrepancies.md): both readings of
each one, the input ranges from the profile's cards, and the no-trump redeal of 000 第五条."""
import copy

import pytest
import yaml

from scoring.engine import LastTrick, MatchState, settle_hand
from scoring.profiles import PROFILE_DIR, ProfileError, load_profile, max_bottom_points, profile_from_dict
from tests.conftest import refused
from tournament.engines import clock as clocks

SZ, TD, UG, CL, CL8 = ("shenzhen-community", "two-deck-standard", "union-games", "company-league",
                       "company-league-2008")


def settle(profile, points, declarer_level="5", defender_level="5"):
    """Settle a hand ending with ``points`` (outside 0..200 through penalties)."""
    trick = min(max(points, 0), 200)
    return settle_hand(profile, declarer_level=declarer_level, defender_level=defender_level,
                       defender_points=trick, penalty_points=points - trick)


def raw(slug):
    with (PROFILE_DIR / f"{slug}.yaml").open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


# --- the mechanism ------------------------------------------------------------------------------

def test_every_choice_states_clause_readings_and_default():
    for slug in (SZ, TD, UG, CL, CL8):
        specs = load_profile(slug).choice_specs
        assert specs
        for name, spec in specs.items():
            assert spec["clause"] and len(spec["readings"]) >= 2 and spec["default"] in spec["readings"]
            assert all(any("\u4e00" <= c <= "\u9fff" for c in r["label"]) for r in spec["readings"].values())
            assert load_profile(slug).reading(name) == spec["default"]


def test_picks_are_kept_in_the_data_and_survive_a_round_trip():
    p = load_profile(SZ, choices={"exactly_80": "declarers_keep"})
    assert p.reading("exactly_80") == "declarers_keep" and p.to_dict()["choices"] == {"exactly_80": "declarers_keep"}
    again = profile_from_dict(p.to_dict(), source="db")
    assert again.reading("exactly_80") == "declarers_keep" and again.result_for(80) == (False, 0)
    back = profile_from_dict(p.to_dict(), source="db", choices={"exactly_80": "takeover"})
    assert back.result_for(80) == (True, 0)                 # an explicit default pick restores the file


@pytest.mark.parametrize("choices, key", [({"no_such": "x"}, "choices.no_such"),
                                          ({"exactly_80": "maybe"}, "choices.exactly_80")])
def test_unknown_choice_or_reading_is_refused(choices, key):
    with refused(key):
        load_profile(SZ, choices=choices)


def test_a_default_reading_must_say_what_the_file_says():
    data = raw(SZ)
    data["scoring"]["at_takeover"] = "declarers_keep"
    with pytest.raises(ProfileError) as caught:
        profile_from_dict(data, source="x.yaml")
    assert caught.value.field.endswith("readings.takeover.set.scoring.at_takeover")


# --- shenzhen 第十三条 ------------------------------------------------------------------------------

def test_shenzhen_exactly_80_both_readings():
    """第十三条 writes only 不够80 (declarers go up) and 超过80 (defenders take over)."""
    r = settle(load_profile(SZ), 80)
    assert not r.declarer_keeps and r.levels_gained == 0                     # default: 80 takes over
    r = settle(load_profile(SZ, choices={"exactly_80": "declarers_keep"}), 80)
    assert r.declarer_keeps and r.levels_gained == 0 and (r.declarer_level, r.defender_level) == ("5", "5")
    assert r.explanation[0] == "防家得分恰为80：庄家方守庄，不升级"
    r = settle(load_profile(SZ, choices={"exactly_80": "declarers_keep"}), 85)
    assert not r.declarer_keeps


@pytest.mark.parametrize("points, default, seed_like", [
    (75, 1, 1), (65, 1, 1), (60, 1, 2), (55, 2, 2), (45, 2, 2), (40, 2, 3), (20, 3, 4), (5, 4, 4),
    (0, 4, 5), (-15, 5, 5), (-20, 5, 6), (-40, 6, 7),
])
def test_shenzhen_declarers_table_both_readings(points, default, seed_like):
    """第十三条 以80分为准，每降低20分，庄家加升一级; the seed's own 140 → 3 example counts from 80."""
    assert settle(load_profile(SZ), points).levels_gained == default
    like_seed = load_profile(SZ, choices={"declarers_table": "like_seed_example"})
    assert settle(like_seed, points).levels_gained == seed_like


# --- company-league 四.2 依次类推 ------------------------------------------------------------------

@pytest.mark.parametrize("slug, points, default, like_two_deck", [
    (CL, 0, 3, 3), (CL, -5, 4, 3), (CL, -35, 4, 3), (CL, -40, 4, 4), (CL, -75, 5, 4), (CL, -80, 5, 5),
    (CL8, 0, 5, 5), (CL8, -5, 6, 5), (CL8, -15, 6, 5), (CL8, -20, 6, 6), (CL8, -35, 7, 6),
])
def test_company_league_negative_scores_both_readings(slug, points, default, like_two_deck):
    assert settle(load_profile(slug), points).levels_gained == default
    other = load_profile(slug, choices={"negative_scores": "like_two_deck"})
    assert settle(other, points).levels_gained == like_two_deck


# --- union-games 一.1 ----------------------------------------------------------------------------------

def test_union_games_time_up_hand_in_play_both_readings():
    """一.1: 2小时结束比赛未过A时 … is the hand in play finished? Default: no (time stops play)."""
    rule = clocks.merge_rule(load_profile(UG).data["timing"])
    assert not rule.announces                                   # the end of time ends play
    finished = load_profile(UG, choices={"time_up_hand_in_play": "finished"})
    rule = clocks.merge_rule(finished.data["timing"])
    assert (rule.announce_before_seconds, rule.hands_after, rule.hand_in_play_counts) == (0, 1, True)
    assert clocks.last_allowed_hand(4, rule.hands_after, rule.hand_in_play_counts) == 5   # the hand in play


# --- input ranges from the profile's cards (issue 13 item 3) ------------------------------------------

@pytest.mark.parametrize("decks, bottom, most", [(2, 8, 80), (1, 6, 60), (2, 20, 180), (3, 8, 80), (1, 14, 100)])
def test_most_points_a_bottom_can_hold(decks, bottom, most):
    assert max_bottom_points(decks, bottom) == most


def test_ranges_come_from_the_profile_data():
    data = raw(TD)
    data["cards"] = {"decks": 3, "bottom": 6}
    p = profile_from_dict(data, source="three-decks.yaml")
    assert (p.points_total, p.bottom_max) == (300, 60)
    assert settle_hand(p, declarer_level="5", defender_level="5", defender_points=250).defender_points == 250
    with refused("bottom_points"):
        settle_hand(p, declarer_level="5", defender_level="5", defender_points=50, bottom_points=65)
    with refused("defender_points"):
        settle_hand(load_profile(TD), declarer_level="5", defender_level="5", defender_points=250)


def test_penalties_and_the_multiplied_bottom_may_leave_0_to_200():
    p = load_profile(SZ)
    r = settle_hand(p, declarer_level="5", defender_level="5", defender_points=200, bottom_points=80,
                    last_trick=LastTrick("defenders", "pair"))
    assert r.defender_points == 520 and r.levels_gained == 22        # 200 + 80×4; +1 per 20 above 80
    r = settle_hand(p, declarer_level="5", defender_level="5", defender_points=0, penalty_points=-40)
    assert r.defender_points == -40


# --- 000 第五条: no trump declared ------------------------------------------------------------------

def test_shenzhen_no_trump_declared_declarers_step_down_and_the_next_player_declares():
    """第五条: 至抓牌结束没有牌手亮主时，庄家下台，重洗重抓，下家坐庄."""
    s = MatchState.new(load_profile(SZ), levels={"NS": "6", "EW": "4"}, declarer="N")
    after = s.redeal(reason="无人亮主")
    assert after.declarer == "W" and after.levels == {"NS": "6", "EW": "4"} and after.hand_count == 1
    h = after.hands[-1]
    assert h.kind == "redeal" and h.defender_points is None and not h.declarer_keeps
    assert h.explanation == ["无人亮主", "至抓牌结束没有牌手亮主：庄家下台，重洗重抓", "下一副由W坐庄（N的下家）"]
    with refused("declarer"):                                   # the rotation now expects W
        after.play(defender_points=50, declarer="N")
    nxt = after.play(defender_points=50)                        # EW declare and win: W's partner E
    assert nxt.declarer == "E" and nxt.levels == {"NS": "6", "EW": "6"}      # 50 points: +2
    assert s.declarer == "N" and s.hand_count == 0              # immutable


def test_redeal_elsewhere_and_before_the_first_hand_is_refused():
    with refused("redeal"):                                     # 002/003/004 take trump from the bottom
        MatchState.new(load_profile(CL), levels={"NS": "6", "EW": "4"}, declarer="N").redeal()
    with refused("declarer"):                                   # 第五条: the first deal is just dealt again
        MatchState.new(load_profile(SZ)).redeal()


def test_redeal_lapses_a_pending_policy():
    s = MatchState.new(load_profile(SZ), levels={"NS": "J", "EW": "5"}, declarer="N").play(
        defender_points=20, last_trick=LastTrick("defenders", "single", rank="J"))
    assert s.policy_pending == "J"
    assert s.redeal().policy_pending is None


def test_profile_copy_keeps_its_own_values():
    data = copy.deepcopy(raw(SZ))
    data["rotation"]["no_trump_declared"] = "partner"
    p = profile_from_dict(data, source="copy.yaml")
    after = MatchState.new(p, levels={"NS": "6", "EW": "4"}, declarer="N").redeal()
    assert after.declarer == "S" and after.hands[-1].declarer_keeps

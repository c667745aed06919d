"""union-games over/under-burying (003 一.19): "庄家多埋或少埋底牌,抓分方直接上庄，并按得分每满40分
升1级的原则升级，最多只能连升3级". The hand's defender points decide the levels, end to end."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulings.engine import PenaltyLedger
from scoring.engine import LastTrick, MatchState, final_points
from scoring.profiles import load_profile
from tests.conftest import refused
from tournament.records import adjustments as adjustments_

UNION = load_profile("union-games")


def bury_effect(offender="NS"):
    return PenaltyLedger(UNION).record("wrong_bury", offender, role="declarers").effect


# --- pure: the engine ----------------------------------------------------------------------------

@pytest.mark.parametrize("points, levels", [
    (0, 0), (35, 0), (40, 1), (75, 1), (80, 2), (115, 2), (120, 3), (200, 3), (280, 3), (-20, 0)])
def test_one_level_per_full_40_at_most_3(points, levels):
    assert bury_effect().levels_for(points) == levels


@given(st.integers(-200, 400).map(lambda n: n - n % 5), st.integers(0, 400).map(lambda n: n - n % 5))
def test_levels_never_fall_as_points_rise_and_stay_within_0_to_3(a, b):
    effect = bury_effect()
    low, high = sorted((a, b))
    assert 0 <= effect.levels_for(low) <= effect.levels_for(high) <= 3


def test_award_kwargs_from_the_hand_points_are_what_match_state_award_takes():
    kwargs = bury_effect("NS").award_kwargs("5", reason="庄家多埋底牌", defender_points=130)
    assert kwargs == {"stage": "change", "gainer": "EW", "levels": 3, "next_declarer": "next",
                      "drop_to": None, "reason": "庄家多埋底牌"}
    state = MatchState.new(UNION, levels={"NS": "5", "EW": "3"}, declarer="N").award(**kwargs)
    assert state.levels == {"NS": "5", "EW": "6"} and state.declarer == "W"  # 下家 of N
    assert state.hands[-1].kind == "award" and not state.hands[-1].declarer_keeps


def test_without_the_hand_points_the_award_carries_no_points_levels():
    effect = bury_effect()
    assert effect.needs_points and effect.award_kwargs("5")["levels"] == 0


def test_bad_points_name_the_field():
    with refused("defender_points"):
        bury_effect().levels_for("90")


def test_final_points_clamp_then_bottom_counts_in_full():
    # 180 + 30 penalty → clamped to 200 (二.3), then a trump pair captures 20 ×4 (一.16): 280 → 3 levels
    before = load_profile("union-games", choices={"fine_cap": "before_bottom"})   # not the default (issue 28)
    points = final_points(before, defender_points=180, penalty_points=30, bottom_points=20,
                          last_trick=LastTrick("defenders", "pair"))
    assert points == 280 and bury_effect().levels_for(points) == 3
    assert final_points(UNION, defender_points=20, penalty_points=-30) == 0
    assert final_points(UNION, defender_points=180, penalty_points=30, bottom_points=20,
                        last_trick=LastTrick("defenders", "pair")) == 200      # default: the whole score


def test_award_on_the_first_hand_uses_the_seat_the_referee_saw():
    kwargs = bury_effect("NS").award_kwargs(None, defender_points=90)
    state = MatchState.new(UNION).award(**kwargs, first_declarer="N")
    assert state.levels == {"NS": "2", "EW": "4"} and state.declarer == "W"


def test_other_profiles_do_not_grade_the_bury_by_points():
    for slug in ("shenzhen-community", "company-league", "company-league-2008"):
        effect = PenaltyLedger(load_profile(slug)).record("wrong_bury", "NS", role="declarers").effect
        assert not effect.needs_points


# --- through the services: a match, a ruling, a hand -------------------------------------------------

@pytest.fixture
def union_table(make_match, make_user):
    match = make_match("union-games")
    referee = make_user("table_referee")
    match.referees.add(referee)
    return match, referee


def record(match, referee, number, points, declarer=None):
    from scoring.services import record_hand

    return record_hand(match, referee, number=number, trump="S", defender_points=points, declarer=declarer).hand


def test_ruling_on_a_recorded_hand_moves_the_stage_and_grades_the_levels(union_table):
    from rulings import services
    from tournament.records.adjustments import match_replay, match_state

    match, referee = union_table
    record(match, referee, 1, 75, declarer="N")          # normally: NS keep the stage, +1
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("3", "2")
    services.record_ruling(match, referee, "wrong_bury", "NS", role="declarers", hand_number=1)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("2", "3")  # EW take the stage, 75 → 1 level
    state = match_state(match)
    assert state.declarer == "W" and state.hands[-1].kind == "award"
    assert match_replay(match).next_number == 2


def test_the_hands_penalty_points_count_toward_the_levels(union_table):
    from rulings import services

    match, referee = union_table
    record(match, referee, 1, 75, declarer="N")
    services.record_ruling(match, referee, "exposed_card", "NS", hand_number=1)   # declarers: +10 → 85
    services.record_ruling(match, referee, "wrong_bury", "NS", role="declarers", hand_number=1)
    award = adjustments_.hand_adjustments(match)[1]["award"]
    assert (award["stage"], award["gainer"], award["levels"]) == ("change", "EW", 2)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("2", "4")


def test_ruling_before_the_hand_is_recorded_waits_for_its_points(union_table):
    from rulings import services
    from tournament.records.adjustments import match_replay, match_state

    match, referee = union_table
    services.record_ruling(match, referee, "wrong_bury", "NS", role="declarers", declarer="N")
    assert adjustments_.hand_adjustments(match)[1]["award"] is None
    assert match_replay(match).next_number == 1                   # the hand stays open for its score
    record(match, referee, 1, 160, declarer="N")
    state = match_state(match)
    assert state.levels == {"NS": "2", "EW": "5"} and state.declarer == "W"   # 160 → 3 levels (max)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("2", "5")  # the stored levels follow at once


def test_voiding_the_ruling_restores_the_played_hand(union_table):
    from rulings import services

    match, referee = union_table
    record(match, referee, 1, 75, declarer="N")
    ruling = services.record_ruling(match, referee, "wrong_bury", "NS", role="declarers", hand_number=1)
    services.void_ruling(ruling, referee)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("3", "2")

"""Non-scoring outcomes decided by sanctions: MatchState.award and forfeit_match."""
import pytest

from scoring.engine import MatchState
from scoring.profiles import load_profile
from tests.conftest import refused


def at(slug, ns, ew, declarer="N", choices=None):
    return MatchState.new(load_profile(slug, choices=choices), levels={"NS": ns, "EW": ew}, declarer=declarer)


#: shenzhen's organiser choice award_at_must_play read as "an award leaves the must-play level stood on"
#: (the default since issue 28 is "stop": tests/scoring/test_rules_third_reading.py)
SZ_PASS = {"award_at_must_play": "pass"}


def test_declarers_step_down_and_opponents_go_up():
    s = at("shenzhen-community", "5", "3").award(stage="change", gainer="defenders", levels=1,
                                                  reason="庄家方多牌")
    assert s.levels == {"NS": "5", "EW": "4"} and s.declarer == "W"
    h = s.hands[-1]
    assert h.kind == "award" and h.defender_points is None and not h.declarer_keeps
    assert h.explanation[0] == "庄家方多牌"


def test_declarers_go_up_two_redeal_same_declarer():
    s = at("shenzhen-community", "5", "3").award(stage="keep", gainer="declarers", levels=2)
    assert s.levels == {"NS": "7", "EW": "3"} and s.declarer == "N"


def test_stage_drops_and_other_side_does_not_go_up():
    s = at("shenzhen-community", "J", "6", declarer="E").award(stage="keep", drop_to="2")
    assert s.levels == {"NS": "J", "EW": "2"} and s.declarer == "E"
    s = at("shenzhen-community", "A", "6").award(stage="change", drop_to="J")
    assert s.levels == {"NS": "J", "EW": "6"} and s.declarer == "W"


def test_first_hand_forfeited_opponents_go_up():
    p = load_profile("two-deck-standard")
    s = MatchState.new(p).award(stage="keep", gainer="EW", levels=1, reason="迟到16分钟，首局放弃")
    assert s.levels == {"NS": "2", "EW": "3"} and s.declarer is None
    with refused("declarer"):
        s.play(defender_points=50)
    assert s.play(defender_points=50, declarer="S").levels == {"NS": "3", "EW": "3"}


def test_award_respects_must_play_and_top():
    # shenzhen (must_play.awards: leave_current, no give-back): stop at J, nothing comes off EW
    s = at("shenzhen-community", "9", "5").award(stage="keep", gainer="declarers", levels=5)
    assert s.levels == {"NS": "J", "EW": "5"}
    assert "少升的3级不由EW退回（必打退级只适用于得分）" in s.hands[-1].explanation
    s = at("shenzhen-community", "J", "5", choices=SZ_PASS).award(stage="keep", gainer="declarers", levels=2)
    assert s.levels == {"NS": "K", "EW": "5"}              # an award leaves J (stops before A)
    s = at("shenzhen-community", "J", "5").award(stage="keep", gainer="declarers", levels=2)
    assert s.levels == {"NS": "J", "EW": "5"}              # default: it stops on J, nothing back
    # company-league (四.4 covers every level not taken): a side on J stays, the gain comes off the other
    s = at("company-league", "9", "5").award(stage="keep", gainer="declarers", levels=5)
    assert s.levels == {"NS": "J", "EW": "2"}              # stop at J; 3 back from 5, floor 2
    s = at("company-league", "J", "5").award(stage="keep", gainer="declarers", levels=2)
    assert s.levels == {"NS": "J", "EW": "3"}              # a sanction is not a hand won at J
    s = at("two-deck-standard", "K", "5").award(stage="keep", gainer="declarers", levels=5)
    assert s.levels == {"NS": "A", "EW": "5"} and s.winner is None


def test_shenzhen_sanction_awards_leave_a_must_play_level():
    """000 第十七条（六）: 藏张成立 … 对方升5级 / 台上方升5级; 第十四条's give-back is for scores only."""
    s = at("shenzhen-community", "2", "2", choices=SZ_PASS).award(stage="keep", gainer="declarers", levels=5,
                                                                   reason="防家藏张成立")
    assert s.levels == {"NS": "7", "EW": "2"} and s.declarer == "N"
    assert "NS升5级：2→7（处罚升级不受2必打限制）" in s.hands[-1].explanation
    s = at("shenzhen-community", "5", "2", choices=SZ_PASS).award(stage="change", gainer="defenders", levels=5,
                                                                   reason="庄家方藏张成立")
    assert s.levels == {"NS": "5", "EW": "7"} and s.declarer == "W"      # declarers step down
    assert not s.hands[-1].declarer_keeps


def test_award_clears_policy():
    from scoring.engine import LastTrick
    s = at("shenzhen-community", "J", "5").play(
        defender_points=20, last_trick=LastTrick("defenders", "single", rank="J"))
    assert s.policy_pending == "J"
    assert s.award(stage="keep", gainer="declarers", levels=2).policy_pending is None


@pytest.mark.parametrize("kwargs,field", [
    ({"stage": "up"}, "stage"),
    ({"stage": "keep", "gainer": "XX", "levels": 1}, "gainer"),
    ({"stage": "keep", "gainer": "declarers", "levels": -1}, "levels"),
    ({"stage": "keep", "next_declarer": "W"}, "next_declarer"),
    ({"stage": "change", "next_declarer": "partner"}, "next_declarer"),
    ({"stage": "keep", "next_declarer": "left"}, "next_declarer"),
    ({"stage": "keep", "drop_to": "JOKER"}, "drop_to"),
])
def test_bad_award(kwargs, field):
    with refused(field):
        at("shenzhen-community", "5", "5").award(**kwargs)


def test_award_before_first_hand_needs_a_side():
    s = MatchState.new(load_profile("shenzhen-community"))
    with refused("gainer"):
        s.award(stage="keep", gainer="declarers", levels=1)
    with refused("drop_to"):
        s.award(stage="keep", drop_to="2")


def test_forfeit_match():
    s = at("company-league", "5", "5").forfeit_match(winner="EW", reason="第三次记违例")
    assert s.winner == "EW" and s.winner_at_time() == "EW" and s.hands[-1].kind == "forfeit"
    with refused("hand"):
        s.play(defender_points=50)
    with refused("hand"):
        s.award(stage="keep")
    with refused("winner"):
        at("company-league", "5", "5").forfeit_match(winner="N")

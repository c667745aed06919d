"""Issue 45 item 4: readings that sat in the profile data although the texts do not write them, now named
organiser choices shown on the rule-choices page with both readings."""
import pytest

from demo.hands import scratch_match
from rulings import services as rulings
from scoring.engine import LastTrick, MatchState, settle_hand
from scoring.profiles import load_profile
from tests.scoring.test_table_page import record
from tournament import roles
from tournament.events import rule_choices

CL, CL8, UG = "company-league", "company-league-2008", "union-games"


# --- who declares after the declarers hold the stage (003 一.5, 004 二.3) -----------------------------------

@pytest.mark.parametrize("slug", [UG, CL, CL8])
def test_who_declares_after_the_declarers_win_is_a_named_choice(slug):
    """003 一.5 "一局结束后，新的庄家根据抓分方的得分确定"; 004 二.3 "出现上下台时，以逆时针方向确定下一坐庄者": neither
    says who declares when the stage does not change. Default: the partner; other: the same declarer."""
    assert load_profile(slug).reading("declarers_win_rotation") == "partner"
    for reading, seat in (("partner", "S"), ("same", "N")):
        profile = load_profile(slug, {"declarers_win_rotation": reading})
        state = MatchState.new(profile, declarer="N").play(defender_points=75)
        assert state.declarer == seat and state.levels["NS"] == "3"


@pytest.mark.django_db
@pytest.mark.parametrize("reading, seat", [(None, "S"), ("same", "N")])
def test_the_next_declarer_through_the_services(make_user, reading, seat):
    user, organiser = make_user(roles.TABLE_REFEREE), make_user(roles.ORGANISER)
    match = scratch_match(UG, referees=[user])
    if reading:
        rule_choices.set_choices(match.round.stage.event, organiser, {"declarers_win_rotation": reading})
        match.refresh_from_db()
    assert record(match, user, 1, 40, declarer="N").next_declarer == seat


# --- point penalties and 004's "捉够80分" for the J/A drop ---------------------------------------------------

def jack(profile, points, penalty):
    return settle_hand(profile, declarer_level="J", defender_level="8", defender_points=points, bottom_points=10,
                       declarer_seat="N", penalty_points=penalty,
                       last_trick=LastTrick("defenders", "pair", trump=True, rank="J", main_rank=True))


@pytest.mark.parametrize("slug", [CL, CL8])
def test_penalties_and_the_80_points_for_the_drop(slug):
    """004 四.5 "使防守方降级，必要条件是，进攻方必须捉够80分（抠底分数计算在内）" (2008: "进攻方捉够80分（抠底分数计算在
    内）"): EW capture 30 + the bottom 10×4 = 70 with 主J, NS fined 20 → 90 counted. Default (counted): the drop
    to 2; other (not_counted): 70 captured, no drop. And the other way: EW 50 + 40 = 90 captured, EW fined 20."""
    assert load_profile(slug).reading("capture_points_penalties") == "counted"
    counted, not_counted = load_profile(slug), load_profile(slug, {"capture_points_penalties": "not_counted"})
    assert jack(counted, 30, 20).rank_capture and jack(counted, 30, 20).declarer_level == "2"
    r = jack(not_counted, 30, 20)
    assert not r.rank_capture and "降级须捉够80分，罚分不计：防家捉得70" in r.explanation
    assert not jack(counted, 50, -20).rank_capture
    assert jack(not_counted, 50, -20).rank_capture     # dropped to 2; the 70 counted keep NS on stage: 2 → 3
    assert jack(not_counted, 50, 0).rank_capture and jack(counted, 50, 0).rank_capture   # no penalty: either


@pytest.mark.django_db
@pytest.mark.parametrize("reading, ns", [(None, "Q"), ("not_counted", "3")])
def test_the_drop_through_the_services(make_user, reading, ns):
    """004 四.5 through the services: NS at J (N declares); EW peek (八.1 偷看他人牌一方，罚40分), then capture
    60 + 10×4 = 100 with 主J: 60 counted (no drop, NS win on J: +1 → Q) or 100 captured (NS drop to 2; the 60 counted keep them on stage, +1 → 3)."""
    user, organiser = make_user(roles.TABLE_REFEREE), make_user(roles.ORGANISER)
    match = scratch_match(CL, referees=[user])
    if reading:
        rule_choices.set_choices(match.round.stage.event, organiser, {"capture_points_penalties": reading})
        match.refresh_from_db()
    for number, hand_points in enumerate((200, 0, 80, 0, 0, 0), start=1):
        record(match, user, number, hand_points, declarer="N" if number == 1 else None)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("J", "8")
    rulings.record_ruling(match, user, "peeking", "EW", hand_number=7)
    record(match, user, 7, 60, bottom_points=10,
           last_trick={"by": "defenders", "shape": "pair", "trump": True, "rank": "J", "main_rank": True})
    match.refresh_from_db()
    assert match.ns_level == ns


@pytest.mark.django_db
def test_the_rule_choices_page_shows_both_readings(make_user, client):
    organiser = make_user(roles.ORGANISER)
    client.force_login(organiser)
    for slug, texts in ((CL, ["原文未写不上下台时由谁坐庄", "庄家方守住后由庄家的对家坐庄（原文未写，本系统默认值）",
                              "庄家方守住后原庄家继续坐庄（连庄）", "原文未写罚分是否计入",
                              "罚分计入“捉够80分”：按本副计罚分后的得分（含抠底）判断能否降级",
                              "罚分不计入“捉够80分”：只按实际捉得的分数（含抠底）判断能否降级"]),
                        (UG, ["原文未写庄家方守住时由谁坐庄", "庄家方守住后原庄家继续坐庄（连庄）"])):
        match = scratch_match(slug)
        html = client.get(f"/manage/{match.round.stage.event.slug}/rule-choices/").content.decode()
        for text in texts:
            assert text in html, text

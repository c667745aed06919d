"""RULES.md sanction rows not pinned by test_engine_rows.py: appeals, waivers, both sides late,
and the union-games bury row (see tests/RULES_COVERAGE.md)."""
import pytest

from rulings.engine import PenaltyLedger
from scoring.engine import MatchState
from scoring.profiles import load_profile
from tests.conftest import refused

SZ, TD, UG, CL, CL8 = ("shenzhen-community", "two-deck-standard", "union-games", "company-league",
                       "company-league-2008")


def ledger(slug):
    return PenaltyLedger(load_profile(slug))


def test_shenzhen_appeal_goes_to_the_chief_referee_then_the_committee():
    appeal = ledger(SZ).appeal
    assert (appeal.deadline_minutes, appeal.to, appeal.then) == (10, "chief_referee", "organising_committee")


def test_union_appeal_goes_to_the_arbitration_group_which_is_final():
    appeal = ledger(UG).appeal
    assert (appeal.to, appeal.then) == ("arbitration_group", None)


@pytest.mark.parametrize("slug, waivable", [(CL8, True), (CL, False), (SZ, False), (TD, False), (UG, False)])
def test_playing_without_penalty_clauses_by_agreement(slug, waivable):
    # RULES.md puts it under company-league(-2008); 004 has it after the 2008 revision only.
    assert ledger(slug).penalties_waivable_by_agreement is waivable


def test_shenzhen_both_sides_late_both_forfeit():
    book = ledger(SZ)
    ns, ew = book.record("late", "NS", minutes=8), book.record("late", "EW", minutes=8)
    assert {ns.beneficiary, ew.beneficiary} == {"EW", "NS"}
    assert all("match_forfeit" in s.kinds and s.automatic and not s.needs_approval for s in (ns, ew))


@pytest.mark.parametrize("slug", [SZ, UG])
def test_card_count_no_penalty_when_the_other_side_plays_on(slug):
    role = {"choice": "in_play"} if slug == UG else {}
    assert ledger(slug).record("card_count", "NS", role="declarers", **role).waivable


def test_union_bury_row_takes_the_stage_and_grades_by_points():
    effect = ledger(UG).record("wrong_bury", "NS", role="declarers").effect
    assert (effect.stage, effect.gainer, effect.next_declarer) == ("EW", "EW", "next")
    assert [effect.levels_for(p) for p in (35, 40, 80, 120, 160)] == [0, 1, 2, 3, 3]


@pytest.mark.parametrize("slug", [CL, CL8])
def test_company_bury_is_80_to_the_side_that_buried(slug):
    sanction = ledger(slug).record("wrong_bury", "NS")
    assert sanction.points == 80 and sanction.beneficiary == "EW" and not sanction.effect.changes_state


def test_two_deck_failed_throw_exposed_and_out_of_turn_every_time():
    book = ledger(TD)
    for code in ("failed_throw", "exposed_card", "out_of_turn"):
        assert [book.record(code, "NS").points for _ in range(3)] == [20, 20, 20]


# --- issue 13: sanction level awards, lateness in seconds, organiser choices ---------------------------
#: shenzhen's award_at_must_play read as "an award leaves the must-play level stood on" (issue 13's reading;
#: the default since issue 28 is "stop", see tests/scoring/test_rules_third_reading.py)
SZ_PASS = {"award_at_must_play": "pass"}

def award_state(slug, ns, ew, sanction, declarer="N", choices=None):
    state = MatchState.new(load_profile(slug, choices=choices), levels={"NS": ns, "EW": ew}, declarer=declarer)
    level = state.levels["NS" if declarer in "NS" else "EW"]
    return state.award(**sanction.effect.award_kwargs(level, sanction.explanation))


def test_shenzhen_hidden_card_established_by_defenders_gives_declarers_five_from_2():
    """000 第十七条（六）: 如果是台下方，得分无效，且台上方升5级 — 2 is must-play, the award leaves it."""
    sanction = ledger(SZ).record("hidden_card", "EW", choice="established", role="defenders")
    state = award_state(SZ, "2", "2", sanction, choices=SZ_PASS)
    assert state.levels == {"NS": "7", "EW": "2"} and state.declarer == "S"
    assert "NS升5级：2→7（处罚升级不受2必打限制）" in state.hands[-1].explanation


def test_shenzhen_hidden_card_established_by_declarers_steps_down_and_opponents_leave_2():
    """000 第十七条（六）: 错误方如果是台上方则下台，得分无效，对方升5级."""
    sanction = ledger(SZ).record("hidden_card", "NS", choice="established", role="declarers")
    state = award_state(SZ, "5", "2", sanction, choices=SZ_PASS)
    assert state.levels == {"NS": "5", "EW": "7"} and state.declarer == "W"


def test_shenzhen_card_count_awards_leave_must_play_too():
    """000 第十七条（三）: 错误家为防守方则庄家方升两级 (declarers on 2 go to 4)."""
    sanction = ledger(SZ).record("card_count", "EW", role="defenders")
    assert award_state(SZ, "2", "6", sanction, choices=SZ_PASS).levels == {"NS": "4", "EW": "6"}
    # issue 45 item 3: 第十七条 writes its exceptions for A and J only, so under the default (award_at_two=full)
    # the award applies at 2 as well; the reading `hold` (issue 28's stop at 2) keeps the declarers at 2
    assert award_state(SZ, "2", "6", sanction).levels == {"NS": "4", "EW": "6"}
    assert award_state(SZ, "2", "6", sanction, choices={"award_at_two": "hold"}).levels == {"NS": "2", "EW": "6"}


def test_company_league_award_at_a_must_play_level_stays_and_gives_back():
    """004 四.4 因必打而少升的级数，对方须退相应级数: worded for any level, so data keeps the stop."""
    state = MatchState.new(load_profile(CL), levels={"NS": "J", "EW": "5"}, declarer="N")
    state = state.award(stage="keep", gainer="declarers", levels=1)
    assert state.levels == {"NS": "J", "EW": "4"}


@pytest.mark.parametrize("level, expected", [("J", {"NS": "2", "EW": "9"}), ("A", {"NS": "J", "EW": "9"}),
                                             ("8", {"NS": "8", "EW": "9"})])
def test_shenzhen_wrong_bury_at_j_or_a_drops_and_the_opponents_still_go_up_five(level, expected):
    """000 第十七条（七）: 台上方扣错牌者自动下台，对方升5级。如台上方打A或J，则降至J或2 (no 不再升级)."""
    sanction = ledger(SZ).record("wrong_bury", "NS", role="declarers")
    assert sanction.effect.drop_keeps_levels and "对方仍升5级" in sanction.explanation
    state = award_state(SZ, level, "4", sanction)
    assert state.levels == expected and state.declarer == "W"


def test_shenzhen_hidden_card_at_j_drops_and_the_opponents_do_not_go_up():
    """000 第十七条（六）: 如在打A或J时，台上方自动降至J或2，台下方不再升级."""
    sanction = ledger(SZ).record("hidden_card", "NS", choice="established", role="declarers")
    assert award_state(SZ, "J", "4", sanction).levels == {"NS": "2", "EW": "4"}


@pytest.mark.parametrize("slug, minutes, seconds, forfeits", [
    (SZ, 5, 0, False), (SZ, 5, 30, True), (SZ, 5, 1, True),            # 000 超过5分钟
    (UG, 14, 59, False), (UG, 15, 0, True),                           # 003 迟到15分钟
])
def test_lateness_in_minutes_and_seconds(slug, minutes, seconds, forfeits):
    sanction = ledger(slug).record("late", "NS", minutes=minutes, seconds=seconds)
    assert ("match_forfeit" in sanction.kinds) is forfeits


def test_two_deck_left_table_over_3_minutes_in_seconds():
    """002 二: 中途离场3分钟内，扣20分；超过3分钟，对手自动胜出."""
    assert ledger(TD).record("left_table", "NS", minutes=3, seconds=0).points == 20
    assert "match_forfeit" in ledger(TD).record("left_table", "NS", minutes=3, seconds=1).kinds


@pytest.mark.parametrize("seconds", [-1, 60, 1.5])
def test_seconds_are_0_to_59(seconds):
    with refused("seconds"):
        ledger(SZ).record("late", "NS", minutes=5, seconds=seconds)


# --- organiser choices on the sanction side -------------------------------------------------------------

def test_shenzhen_escalation_warnings_both_readings():
    """000 第十六条（二）: 在同轮比赛中，第二次给予警告，由裁判员笔记违例一次."""
    book = ledger(SZ)
    kinds = [set(book.record("delay", "NS").kinds) for _ in range(3)]
    assert kinds == [{"warning"}, {"violation"}, {"violation"}]         # default: every one from the 2nd
    book = PenaltyLedger(load_profile(SZ, choices={"escalation_warnings": "second_only"}))
    kinds = [set(book.record("delay", "NS").kinds) for _ in range(3)]
    assert kinds == [{"warning"}, {"violation"}, {"warning"}]


def test_shenzhen_escalation_count_both_readings():
    """000 第十六条（二）（四）: counted per side (default) or per player (the seat must be given)."""
    book = ledger(SZ)
    assert [set(book.record("delay", seat).kinds) for seat in ("N", "S")] == [{"warning"}, {"violation"}]
    book = PenaltyLedger(load_profile(SZ, choices={"escalation_count": "per_player"}))
    assert [set(book.record("delay", seat).kinds) for seat in ("N", "S", "N")] == [
        {"warning"}, {"warning"}, {"violation"}]
    replayed = PenaltyLedger.replay(load_profile(SZ, choices={"escalation_count": "per_player"}), book.entries)
    assert [set(s.kinds) for s in replayed.active] == [{"warning"}, {"warning"}, {"violation"}]


def test_union_lateness_clause_2_2_both_readings():
    """003 二.2 (迟到5分钟视为弃权, beside 抽签决定对家) against 二.14/一.21 (5 warning, 10 −10, 15 forfeit)."""
    assert set(ledger(UG).record("late", "NS", minutes=5).kinds) == {"warning"}   # default: the draw
    book = PenaltyLedger(load_profile(UG, choices={"lateness_at_draw": "match_lateness"}))
    assert "match_forfeit" in book.record("late", "NS", minutes=5).kinds


def test_union_failed_throw_fine_both_readings():
    """003 一.18 无须扣分，但要强制出小牌 against 一.19 / 二.8（2） 每张扣10分."""
    assert ledger(UG).record("failed_throw", "NS", cards=3).points == 30
    book = PenaltyLedger(load_profile(UG, choices={"failed_throw_fine": "no_fine"}))
    sanction = book.record("failed_throw", "NS")
    assert sanction.points == 0 and sanction.clause == "一.18" and "无须扣分" in sanction.explanation

"""One test per sanction-table row, for all five profiles (rulings.engine.PenaltyLedger)."""
import pytest

from rulings.engine import PenaltyLedger
from scoring.profiles import load_profile

SZ, TD, UG, CL, CL8 = ("shenzhen-community", "two-deck-standard", "union-games", "company-league",
                       "company-league-2008")

# (profile, code, record kwargs, kinds, points, levels, needs_approval, text in the explanation)
ROWS = [
    # shenzhen-community 第十六、十七条
    (SZ, "late", {"minutes": 5}, set(), 0, 0, False, "不处罚"),
    (SZ, "late", {"minutes": 6}, {"match_forfeit"}, 0, 0, False, "迟到6分钟"),
    (SZ, "late", {"minutes": 5, "seconds": 30}, {"match_forfeit"}, 0, 0, False, "迟到5分钟30秒"),   # 超过5分钟
    (SZ, "late", {"minutes": 5, "seconds": 0}, set(), 0, 0, False, "不处罚"),
    (SZ, "delay", {}, {"warning"}, 0, 0, False, "警告"),
    (SZ, "delay", {"choice": "violation"}, {"violation"}, 0, 0, False, "记违例"),
    (SZ, "out_of_turn", {"choice": 20}, {"points"}, 20, 0, False, "罚20分"),
    (SZ, "exposed_card", {}, {"warning"}, 0, 0, False, "轻罚张"),
    (SZ, "exposed_card", {"choice": "major"}, set(), 0, 0, False, "牌面向上"),
    (SZ, "exposed_card", {"choice": "major_violation"}, {"violation"}, 0, 0, False, "重罚张并记违例"),
    (SZ, "failed_throw", {"cards": 3}, {"points"}, 30, 0, False, "每张罚10分"),
    (SZ, "wrong_follow", {"cards": 2}, {"points"}, 10, 0, False, "每张罚5分"),
    (SZ, "wrong_follow", {"cards": 2, "choice": "same_trick"}, {"points"}, 20, 0, False, "按暴露张处理"),
    (SZ, "hidden_card", {"cards": 1}, {"points"}, 10, 0, False, "当圈"),
    (SZ, "hidden_card", {"choice": "established", "role": "declarers"},
     {"step_down", "levels"}, 0, 5, False, "得分无效"),
    (SZ, "hidden_card", {"choice": "established", "role": "defenders"}, {"levels"}, 0, 5, False, "对方升5级"),
    (SZ, "card_count", {"role": "declarers"}, {"step_down", "levels"}, 0, 1, False, "由下家坐庄"),
    (SZ, "card_count", {"role": "defenders"}, {"levels"}, 0, 2, False, "由原庄家继续坐庄"),
    (SZ, "wrong_bury", {"role": "declarers"}, {"step_down", "levels"}, 0, 5, False, "打J降至2"),
    (SZ, "wrong_bury", {"role": "defenders"}, {"levels"}, 0, 5, False, "对方升5级"),
    (SZ, "signal", {}, {"warning"}, 0, 0, False, "警告"),
    (SZ, "signal", {"choice": 80}, {"points"}, 80, 0, False, "罚80分"),
    (SZ, "signal", {"choice": "match_loss"}, {"match_forfeit"}, 0, 0, True, "判负"),
    (SZ, "signal", {"choice": "停赛"}, {"disqualification"}, 0, 0, True, "取消比赛资格"),
    (SZ, "peeking", {"choice": "40"}, {"points"}, 40, 0, False, "罚40分"),
    (SZ, "noise", {"choice": 10}, {"points"}, 10, 0, False, "罚10分"),
    (SZ, "misconduct", {"choice": "match_forfeit"}, {"match_forfeit"}, 0, 0, True, "判负"),
    (SZ, "cheating", {}, {"match_forfeit"}, 0, 0, True, "判负（待裁判长核准）"),
    # two-deck-standard 二、十（六）、十一、十七～二十二
    (TD, "late", {"minutes": 0}, set(), 0, 0, False, "不处罚"),
    (TD, "late", {"minutes": 5}, {"warning", "violation"}, 0, 0, False, "警告"),
    (TD, "late", {"minutes": 6}, {"points"}, 20, 0, False, "首局扣20分"),
    (TD, "late", {"minutes": 12}, {"points"}, 30, 0, False, "迟到12分钟：首局扣30分"),
    (TD, "late", {"minutes": 20}, {"hand_forfeit", "levels"}, 0, 1, False, "首局自动放弃"),
    (TD, "late", {"minutes": 21}, {"match_forfeit"}, 0, 0, False, "弃权"),
    (TD, "late", {"minutes": 5, "seconds": 30}, {"points"}, 20, 0, False, "首局扣20分"),     # over 5: 6—10
    (TD, "late", {"minutes": 0, "seconds": 30}, {"warning", "violation"}, 0, 0, False, "警告"),
    (TD, "left_table", {"minutes": 3}, {"points"}, 20, 0, False, "罚20分"),
    (TD, "left_table", {"minutes": 4}, {"match_forfeit"}, 0, 0, False, "对手自动胜出"),
    (TD, "left_table", {"minutes": 3, "seconds": 1}, {"match_forfeit"}, 0, 0, False, "对手自动胜出"),
    (TD, "hidden_card", {}, {"choice"}, 0, 0, False, "由非违规方选择"),
    (TD, "hidden_card", {"choice": "step_down", "role": "declarers"}, {"step_down"}, 0, 0, False, "下台"),
    (TD, "hidden_card", {"choice": "step_down", "role": "defenders"}, {"levels"}, 0, 1, False, "对方升1级"),
    (TD, "hidden_card", {"choice": 40}, {"points"}, 40, 0, False, "罚40分"),
    (TD, "wrong_follow", {"choice": "points"}, {"points"}, 40, 0, False, "罚40分"),
    (TD, "card_count", {"choice": "40"}, {"points"}, 40, 0, False, "重新该局比赛"),
    (TD, "peeking", {"choice": "下台", "role": "declarers"}, {"step_down"}, 0, 0, False, "查看底牌"),
    (TD, "bottom_overdrawn", {}, {"choice"}, 0, 0, False, "庄家被摸穿"),
    (TD, "bottom_overdrawn", {"choice": "other_up"}, {"levels"}, 0, 1, False, "对方升1级"),
    (TD, "bottom_overdrawn", {"choice": "40"}, {"points"}, 40, 0, False, "罚40分"),
    (TD, "failed_throw", {}, {"points"}, 20, 0, False, "罚20分"),
    (TD, "exposed_card", {}, {"points"}, 20, 0, False, "罚20分"),
    (TD, "out_of_turn", {}, {"points"}, 20, 0, False, "罚20分"),
    (TD, "delay", {}, {"warning"}, 0, 0, False, "第1次"),
    (TD, "signal", {"role": "declarers"}, {"step_down"}, 0, 0, False, "情节轻"),
    (TD, "signal", {"role": "defenders"}, {"levels"}, 0, 1, False, "对方升1级"),
    (TD, "signal", {"choice": "grave"}, {"disqualification"}, 0, 0, True, "取消"),
    # union-games 一.2/18/19/21, 二
    (UG, "late", {"minutes": 4}, set(), 0, 0, False, "不处罚"),
    (UG, "late", {"minutes": 5}, {"warning"}, 0, 0, False, "警告"),
    (UG, "late", {"minutes": 10}, {"points"}, 10, 0, False, "首局扣10分"),
    (UG, "late", {"minutes": 15}, {"match_forfeit"}, 0, 0, False, "弃权"),
    (UG, "late", {"minutes": 9, "seconds": 30}, {"warning"}, 0, 0, False, "警告"),          # not yet 10
    (UG, "noise", {}, {"warning"}, 0, 0, False, "警告"),
    (UG, "cheating", {}, {"disqualification"}, 0, 0, True, "取消"),
    (UG, "signal", {}, {"points"}, 50, 0, False, "罚50分"),
    (UG, "exposed_card", {}, {"points"}, 10, 0, False, "罚10分"),
    (UG, "failed_throw", {"cards": 2}, {"points"}, 20, 0, False, "出最小的牌"),
    (UG, "wrong_follow", {"cards": 2}, {"points"}, 20, 0, False, "收回重出"),
    (UG, "wrong_follow", {"choice": "found_later", "role": "declarers"}, {"step_down"}, 0, 0, False, "过后发现"),
    (UG, "wrong_follow", {"choice": "found_later", "role": "defenders"}, {"levels"}, 0, 1, False, "对方升1级"),
    (UG, "hidden_card", {}, {"points"}, 10, 0, False, "轻罚张"),
    (UG, "hidden_card", {"choice": "heavy"}, {"points"}, 30, 0, False, "重罚张"),
    (UG, "card_count", {}, set(), 0, 0, False, "任意抽取一张"),
    (UG, "card_count", {"choice": "in_play", "role": "declarers"}, {"hand_forfeit", "step_down"}, 0, 0, False, "本副牌判负"),
    (UG, "card_count", {"choice": "in_play", "role": "defenders"}, {"hand_forfeit", "levels"}, 0, 1, False, "对方升1级"),
    (UG, "wrong_bury", {}, {"step_down", "levels"}, 0, 0, False, "每满40分升1级，最多3级"),
    (UG, "delay", {}, {"warning"}, 0, 0, False, "警告"),
    (UG, "out_of_turn", {}, {"warning"}, 0, 0, False, "警告"),
    (UG, "over_cut", {}, {"points"}, 10, 0, False, "罚10分"),
]
for slug in (CL, CL8):  # 004 八．罚则, 四.3, 九.4/5: the 2008 revision keeps the same table
    ROWS += [
        (slug, "peeking", {}, {"points"}, 40, 0, False, "罚40分"),
        (slug, "signal", {}, {"points"}, 80, 0, False, "罚80分"),
        (slug, "failed_throw", {"cards": 4}, {"points"}, 40, 0, False, "共罚40分"),
        (slug, "wrong_bury", {}, {"points"}, 80, 0, False, "罚80分"),
        (slug, "card_count", {}, {"choice"}, 0, 0, False, "重新起牌"),
        (slug, "card_count", {"choice": "redeal"}, set(), 0, 0, False, "重新洗牌抓牌"),
    ]


def ledger(slug):
    return PenaltyLedger(load_profile(slug))


@pytest.mark.parametrize("slug, code, kwargs, kinds, points, levels, approval, text", ROWS,
                         ids=[f"{r[0]}-{r[1]}-{i}" for i, r in enumerate(ROWS)])
def test_table_row(slug, code, kwargs, kinds, points, levels, approval, text):
    sanction = ledger(slug).record(code, "NS", **kwargs)
    assert set(sanction.kinds) == kinds
    assert (sanction.points, sanction.levels, sanction.needs_approval) == (points, levels, approval)
    assert text in sanction.explanation
    assert sanction.clause and sanction.beneficiary == "EW"


def test_every_listed_offence_has_a_row():
    for slug in (SZ, TD, UG, CL, CL8):
        assert {row[1] for row in ROWS if row[0] == slug} == set(ledger(slug).codes), slug


@pytest.mark.parametrize("slug, code, steps", [
    (TD, "delay", [({"warning"}, 0), ({"points"}, 20), ({"points"}, 20)]),
    (UG, "delay", [({"warning"}, 0), ({"points"}, 10), ({"points"}, 10)]),
    (UG, "out_of_turn", [({"warning"}, 0), ({"points"}, 10)]),
    (UG, "noise", [({"warning"}, 0), ({"points"}, 80), ({"points"}, 80)]),
    (UG, "signal", [({"points"}, 50), ({"points"}, 50), ({"match_forfeit"}, 0),   # 二.13 罚出局 (issue 28)
                    ({"match_forfeit"}, 0)]),
])
def test_repeat_steps_are_counted_per_side(slug, code, steps):
    book = ledger(slug)
    book.record(code, "EW")  # the other side's offence does not count for NS
    for kinds, points in steps:
        sanction = book.record(code, "NS")
        assert (set(sanction.kinds), sanction.points) == (kinds, points)


def test_union_third_signal_needs_approval():
    """003 二.13 直接被罚出局: out of the match without approval; the event (裁判长有权责令其退出本次比赛) is
    the chief's option, approved by a chief (rulings/test_rules_item11.py, issue 28 item 11)."""
    book = ledger(UG)
    results = [book.record("signal", "EW") for _ in range(3)]
    assert [s.needs_approval for s in results] == [False, False, False]
    assert "第3次" in results[2].explanation
    book = ledger(UG)
    results = [book.record("signal", "EW", **({"choice": "event"} if i == 2 else {})) for i in range(3)]
    assert results[2].needs_approval and set(results[2].kinds) == {"disqualification"}

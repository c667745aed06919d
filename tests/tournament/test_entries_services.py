"""Entry services: adding, editing, withdrawing, replacing, teams and the partner draw by lot."""
import datetime as dt

import pytest

from scoring.profile_store import latest_profile
from tournament.engines.pairings import draw_pairs
from tournament.entries import individuals
from tournament.entries import pairs as entry_pairs
from tournament.entries import services as svc
from tournament.entries.services import EntryError, PairData, PlayerData
from tournament.models import Draw, Event, Match, Pair, Registration, Round, Stage


def make_event(slug, profile):
    day = dt.date(2026, 12, 5)
    return Event.objects.create(slug=slug, name=slug, start_date=day, end_date=day, profile=latest_profile(profile))


@pytest.fixture
def open_event(db):
    """An event without a team rule (shenzhen-community)."""
    return make_event("open", "shenzhen-community")


@pytest.fixture
def union(db):
    """An event whose profile (union-games) requires teams of 3 pairs (1 women's) + 1 reserve."""
    return make_event("union", "union-games")


def pair(unit="甲", name="", a=("张三", "男", ""), b=("李四", "男", ""), **kw):
    return PairData(unit=unit, name=name, player1=PlayerData(*a), player2=PlayerData(*b), **kw)


def refused(call, *args, field=None, contains=""):
    """Run ``call`` expecting an EntryError; check field and the message shown (Chinese); return the message."""
    with pytest.raises(EntryError) as info:
        call(*args)
    assert contains in str(info.value), str(info.value)
    if field is not None:
        assert info.value.field == field
    return str(info.value)


def counts(event):
    return (event.pairs.count(), event.players.count(), event.units.count(), event.teams.count())


# --------------------------------------------------------------------------- adding pairs
def test_add_pair_creates_unit_players_and_default_name(open_event):
    p = entry_pairs.add_pair(open_event, pair(seed=1))
    assert (p.name, p.unit.name, p.seed, p.status) == ("张三/李四", "甲", 1, "active")
    assert (p.player1.name, p.player1.gender, p.player2.gender) == ("张三", "M", "M")
    assert counts(open_event) == (1, 2, 1, 0)


def test_gender_words_accepted(open_event):
    p = entry_pairs.add_pair(open_event, pair(a=("王芳", "女", ""), b=("赵丽", "F", "")))
    assert (p.player1.gender, p.player2.gender) == ("F", "F")


@pytest.mark.parametrize("data, field, words", [
    (pair(unit=" "), "unit", "请填写单位"),
    (pair(a=("", "男", "")), "player1", "选手1的姓名"),
    (pair(b=("李四", "X", "")), "gender2", "性别只能填"),
    (pair(b=("张三", "男", "")), "player2", "同一个人"),
    (pair(seed=0), "seed", "种子号必须是正整数"),
    (pair(reserve=True), "team", "候补对必须属于一支队伍"),
])
def test_bad_pair_input_is_refused_with_its_field(open_event, data, field, words):
    refused(entry_pairs.add_pair, open_event, data, field=field, contains=words)
    assert counts(open_event) == (0, 0, 0, 0)


def test_duplicate_entry_same_two_players(open_event):
    entry_pairs.add_pair(open_event, pair(name="一队"))
    msg = refused(entry_pairs.add_pair, open_event, pair(name="二队", a=("李四", "男", ""), b=("张三", "男", "")),
                  field="player1")
    assert msg == "重复报名：“一队”已是这两名选手"
    assert counts(open_event) == (1, 2, 1, 0)


def test_duplicate_pair_name(open_event):
    entry_pairs.add_pair(open_event, pair(name="一队"))
    refused(entry_pairs.add_pair, open_event, pair(name="一队", a=("王五", "男", ""), b=("赵六", "男", "")),
            field="name", contains="对名“一队”已被使用")


def test_one_player_in_two_pairs(open_event):
    entry_pairs.add_pair(open_event, pair(name="一队"))
    msg = refused(entry_pairs.add_pair, open_event, pair(name="二队", a=("王五", "男", ""), b=("张三", "男", "")),
                  field="player2")
    assert msg == "选手“张三”（甲）已在“一队”中，一名选手只能参加一对"
    assert counts(open_event) == (1, 2, 1, 0)


def test_same_name_with_different_phones_are_two_people(open_event):
    entry_pairs.add_pair(open_event, pair(name="一队", a=("张伟", "男", "13800000001")))
    entry_pairs.add_pair(open_event, pair(name="二队", a=("张伟", "男", "13800000002"), b=("王五", "男", "")))
    assert open_event.pairs.count() == 2


def test_same_phone_under_another_name_is_refused(open_event):
    entry_pairs.add_pair(open_event, pair(name="一队", a=("张伟", "男", "13800000001")))
    refused(entry_pairs.add_pair, open_event, pair(name="二队", a=("王五", "男", ""), b=("赵六", "男", "13800000001")),
            field="phone2", contains="电话13800000001已登记给选手“张伟”")


def test_player_of_another_unit_is_refused(open_event):
    entry_pairs.add_pair(open_event, pair(unit="甲", name="一队", a=("张伟", "男", "13800000001")))
    msg = refused(entry_pairs.add_pair, open_event,
                  pair(unit="乙", name="二队", a=("张伟", "男", "13800000001"), b=("王五", "男", "")),
                  field="player1")
    assert msg == "选手“张伟”已代表单位“甲”报名，不能再代表“乙”"
    assert not open_event.units.filter(name="乙").exists()


def test_duplicate_seed(open_event):
    entry_pairs.add_pair(open_event, pair(name="一队", seed=1))
    refused(entry_pairs.add_pair, open_event, pair(name="二队", a=("王五", "男", ""), b=("赵六", "男", ""), seed=1),
            field="seed", contains="种子号1已给了“一队”")


# --------------------------------------------------------------------------- edit / withdraw / replace
def test_edit_pair_corrects_players_in_place(open_event):
    p = entry_pairs.add_pair(open_event, pair(name="一队"))
    ids = (p.player1_id, p.player2_id)
    entry_pairs.edit_pair(p, pair(name="一队改", a=("张三丰", "男", "139"), b=("李四", "女", ""), seed=2))
    p.refresh_from_db()
    assert (p.name, p.seed, p.player1.name, p.player1.phone, p.player2.gender) == ("一队改", 2, "张三丰", "139", "F")
    assert (p.player1_id, p.player2_id) == ids and open_event.players.count() == 2


def test_edit_pair_cannot_take_a_player_of_another_pair(open_event):
    p = entry_pairs.add_pair(open_event, pair(name="一队"))
    entry_pairs.add_pair(open_event, pair(name="二队", a=("王五", "男", ""), b=("赵六", "男", "")))
    refused(entry_pairs.edit_pair, p, pair(name="一队", b=("王五", "男", "")), field="player2", contains="已在“二队”中")
    p.refresh_from_db()
    assert p.player2.name == "李四"


def test_withdraw_frees_players_and_keeps_name(open_event):
    p = entry_pairs.add_pair(open_event, pair(name="一队"))
    entry_pairs.withdraw_pair(p)
    assert Pair.objects.get(pk=p.pk).status == "withdrawn"
    entry_pairs.add_pair(open_event, pair(name="新一队"))  # the same players may enter again
    refused(entry_pairs.add_pair, open_event, pair(name="一队", a=("A", "男", ""), b=("B", "男", "")), field="name")
    refused(entry_pairs.withdraw_pair, p, contains="已退赛")


def test_replace_player(open_event):
    p = entry_pairs.add_pair(open_event, pair(name="一队"))
    entry_pairs.replace_player(p, 2, PlayerData("王五", "男", ""))
    p.refresh_from_db()
    assert p.player2.name == "王五" and p.player2.unit == p.unit
    refused(entry_pairs.replace_player, p, 2, PlayerData("王五", "男", ""), contains="同一名选手")
    refused(entry_pairs.replace_player, p, 1, PlayerData("王五", "男", ""), field="player2", contains="同一个人")


def test_replace_pair_is_both_or_neither(open_event):
    old = entry_pairs.add_pair(open_event, pair(name="一队"))
    entry_pairs.add_pair(open_event, pair(name="二队", a=("王五", "男", ""), b=("赵六", "男", "")))
    refused(entry_pairs.replace_pair, old, pair(name="三队", a=("王五", "男", ""), b=("钱七", "男", "")), field="player1")
    assert Pair.objects.get(pk=old.pk).status == "active"  # the withdrawal was rolled back too
    new = entry_pairs.replace_pair(old, pair(name="三队", a=("孙八", "男", ""), b=("钱七", "男", "")))
    assert Pair.objects.get(pk=old.pk).status == "withdrawn" and new.status == "active"


# --------------------------------------------------------------------------- lock after the draw / play
def _stage_with_match(event, pair_a, pair_b, **match):
    stage = Stage.objects.create(event=event, order=1, kind="round_robin", name="小组赛")
    rnd = Round.objects.create(stage=stage, number=1)
    return Match.objects.create(round=rnd, table=1, ns=pair_a, ew=pair_b, profile=event.profile, **match)


def test_entries_locked_after_group_draw(open_event):
    p = entry_pairs.add_pair(open_event, pair(name="一队"))
    Draw.objects.create(event=open_event, kind=Draw.Kind.GROUPS, seed="1", result={})
    msg = "本赛事已经抽签（分组或对阵），报名已锁定，不能再增加、修改或换人（退赛仍可办理）"
    assert refused(entry_pairs.add_pair, open_event, pair(name="二队", a=("A", "男", ""), b=("B", "男", ""))) == msg
    assert refused(entry_pairs.edit_pair, p, pair(name="x")) == msg
    assert refused(entry_pairs.replace_player, p, 1, PlayerData("C", "男", "")) == msg
    assert open_event.pairs.count() == 1
    assert entry_pairs.withdraw_pair(p).status == "withdrawn"  # withdrawing stays possible


def test_entries_locked_after_first_started_match(open_event):
    a = entry_pairs.add_pair(open_event, pair(name="一队"))
    b = entry_pairs.add_pair(open_event, pair(name="二队", a=("王五", "男", ""), b=("赵六", "男", "")))
    m = _stage_with_match(open_event, a, b)
    assert svc.entries_locked_reason(open_event) is None  # scheduled is not started
    Match.objects.filter(pk=m.pk).update(status=Match.Status.PLAYING)
    refused(entry_pairs.edit_pair, a, pair(name="x"), contains="已有比赛开始")


def test_withdrawal_after_the_draw_gives_walkovers(open_event):
    from tests.tournament.test_draws_support import finish
    from tournament.competition import draws, stages

    names = [("一", "男"), ("二", "男"), ("三", "男"), ("四", "男")]
    pairs = [entry_pairs.add_pair(open_event, pair(name=f"{n}队", a=(f"{n}甲", g, ""), b=(f"{n}乙", g, "")))
             for n, g in names]
    stage = stages.create_stage(open_event, Stage.Kind.ROUND_ROBIN, settings={"n_groups": 1})
    draws.draw_groups(stage, seed=1)
    played = finish(Match.objects.filter(round__stage=stage, ns=pairs[0]).first()
                    or Match.objects.filter(round__stage=stage, ew=pairs[0]).first())
    entry_pairs.withdraw_pair(pairs[0])
    rest = Match.objects.filter(round__stage=stage).filter(ns=pairs[0]) | \
        Match.objects.filter(round__stage=stage).filter(ew=pairs[0])
    assert set(rest.exclude(pk=played.pk).values_list("status", flat=True)) == {"walkover"}
    assert not rest.filter(status="walkover", winner=pairs[0]).exists()


# --------------------------------------------------------------------------- teams (union-games)
def W(n):
    return (f"女{n}", "女", "")


def M(n):
    return (f"男{n}", "男", "")


def team_pair(n, a, b, team="甲队", reserve=False, unit="甲"):
    return pair(unit=unit, name=f"{team}{n}", a=a, b=b, team=team, reserve=reserve)


def full_team(event, team="甲队", unit="甲"):
    k = iter(range(100))
    for a, b, r in ((W, W, False), (M, M, False), (M, W, False), (M, M, True)):
        i = next(k)
        entry_pairs.add_pair(event, team_pair(i, a(f"{team}{i}a"), b(f"{team}{i}b"), team, r, unit))


def test_team_rule_read_from_profile_data(union, open_event):
    assert svc.team_rule(union) == svc.TeamRule(pairs=3, women_pairs=1, reserve_pairs=1)
    assert svc.team_rule(open_event) is None


def test_team_required_when_profile_has_team_rule(union):
    refused(entry_pairs.add_pair, union, pair(), field="team", contains="本赛事规则要求每对都属于一支队伍")


def test_complete_team_has_no_problem(union):
    full_team(union)
    assert svc.team_problems(union) == []
    svc.check_entries_ready(union)


def test_team_missing_women_pair_says_so(union):
    entry_pairs.add_pair(union, team_pair(1, M(1), M(2)))
    entry_pairs.add_pair(union, team_pair(2, M(3), W(4)))
    entry_pairs.add_pair(union, team_pair(3, M(5), M(6), reserve=True))
    assert [p.message for p in svc.team_problems(union)] == [
        "队伍“甲队”需要3对正选（其中1对女子）和1对候补：正选只有2对，缺少1对；缺少女子对"]
    with pytest.raises(EntryError, match="缺少女子对"):
        svc.check_entries_ready(union)


def test_team_missing_reserve_says_so(union):
    for i, (a, b) in enumerate(((W(1), W(2)), (M(3), M(4)), (M(5), M(6)))):
        entry_pairs.add_pair(union, team_pair(i, a, b))
    assert svc.team_problems(union)[0].message.endswith("缺少候补对（需要1对，现有0对）")


def test_last_regular_place_kept_for_the_women_pair(union):
    entry_pairs.add_pair(union, team_pair(1, M(1), M(2)))
    entry_pairs.add_pair(union, team_pair(2, M(3), W(4)))
    msg = refused(entry_pairs.add_pair, union, team_pair(3, M(5), M(6)), field="gender1")
    assert msg == "队伍“甲队”还缺1对女子对，剩下的正选名额只能给女子对（需要3对正选（其中1对女子）和1对候补）"
    entry_pairs.add_pair(union, team_pair(3, W(5), W(6)))


def test_team_full_and_reserve_full(union):
    full_team(union)
    refused(entry_pairs.add_pair, union, team_pair(9, W(7), W(8)), field="team", contains="队伍“甲队”的正选已满")
    refused(entry_pairs.add_pair, union, team_pair(9, M(7), M(8), reserve=True), field="reserve", contains="候补已满")


def test_team_of_another_unit_refused(union):
    entry_pairs.add_pair(union, team_pair(1, W(1), W(2)))
    refused(entry_pairs.add_pair, union, team_pair(2, M(3), M(4), unit="乙"), field="team",
            contains="队伍“甲队”属于单位“甲”，不能加入“乙”的对")


def test_replacing_a_woman_by_a_man_in_the_only_women_pair_refused(union):
    entry_pairs.add_pair(union, team_pair(1, M(1), M(2)))
    entry_pairs.add_pair(union, team_pair(2, M(3), M(4)))
    wp = entry_pairs.add_pair(union, team_pair(3, W(5), W(6)))
    refused(entry_pairs.replace_player, wp, 1, PlayerData("男9", "男", ""), contains="还缺1对女子对")


# --------------------------------------------------------------------------- individuals drawn by lot
def sign_up(event, names, unit="甲", gender="男", **kw):
    return [individuals.add_individual(event, unit, PlayerData(n, gender, ""), **kw) for n in names]


def test_pair_draw_records_seed_and_is_reproducible(open_event, make_user):
    regs = sign_up(open_event, ["A", "B", "C", "D"]) + sign_up(open_event, ["E", "F"], unit="乙")
    draw = individuals.draw_individual_pairs(open_event, seed="20261205", user=make_user("organiser"))
    assert (draw.kind, draw.seed) == ("pairs", "20261205")
    pairs = open_event.pairs.all()
    assert pairs.count() == 3
    jia = [r.player_id for r in regs[:4]]
    expected = draw_pairs(jia, "20261205") + draw_pairs([r.player_id for r in regs[4:]], "20261205")
    assert sorted(tuple(row[:2]) for row in draw.result["pairs"]) == sorted(expected)
    pools = {pool["pool"]: pool["players"] for pool in draw.params["pools"]}
    assert pools == {"单位“甲”": jia, "单位“乙”": [r.player_id for r in regs[4:]]}
    for p in pairs:
        assert p.player1.unit == p.player2.unit == p.unit
        assert set(Registration.objects.filter(pair=p).values_list("player_id", flat=True)) == {
            p.player1_id, p.player2_id}


def test_pair_draw_odd_number_is_a_clear_error(open_event):
    sign_up(open_event, ["A", "B", "C"])
    sign_up(open_event, ["D", "E"], unit="乙")
    msg = refused(individuals.draw_individual_pairs, open_event, "7")
    assert msg == "单人报名人数为奇数，无法两两抽签组队，请增减一人：单位“甲”有3人（奇数）"
    assert open_event.pairs.count() == 0 and not open_event.draws.exists()


def test_pair_draw_redo_supersedes_and_keeps_history(open_event):
    sign_up(open_event, ["A", "B", "C", "D"])
    first = individuals.draw_individual_pairs(open_event, seed="1")
    second = individuals.draw_individual_pairs(open_event, seed="2")
    assert second.supersedes == first and open_event.draws.count() == 2
    assert open_event.pairs.count() == 2
    assert not Pair.objects.filter(pk__in=[r[2] for r in first.result["pairs"]]).exists()
    assert individuals.live_pairs_draw(open_event) == second


def test_pair_draw_refused_after_group_draw(open_event):
    sign_up(open_event, ["A", "B"])
    Draw.objects.create(event=open_event, kind=Draw.Kind.GROUPS, seed="1", result={})
    refused(individuals.draw_individual_pairs, open_event, "1", contains="报名已锁定")


def test_pair_draw_generates_a_seed_when_none_given(open_event):
    sign_up(open_event, ["A", "B"])
    draw = individuals.draw_individual_pairs(open_event)
    assert draw.seed.isdigit() and len(draw.seed) == 6


def test_sign_up_refused_for_a_player_already_in_a_pair(open_event):
    entry_pairs.add_pair(open_event, pair(name="一队"))
    refused(individuals.add_individual, open_event, "甲", PlayerData("张三", "男", ""), field="player1", contains="已在“一队”中")
    sign_up(open_event, ["王五"])
    refused(entry_pairs.add_pair, open_event, pair(name="二队", a=("王五", "男", ""), b=("X", "男", "")),
            contains="已单人报名")


def test_union_team_pools_draw_a_women_pair(union):
    sign_up(union, ["女1", "女2"], gender="女", team="甲队", pool="女子")
    sign_up(union, ["男1", "男2", "男3", "男4"], team="甲队")
    sign_up(union, ["男5", "男6"], team="甲队", reserve=True)
    individuals.draw_individual_pairs(union, seed="x")
    assert svc.team_problems(union) == []
    women = [p for p in union.pairs.all() if p.player1.gender == p.player2.gender == "F"]
    assert len(women) == 1 and union.pairs.filter(reserve=True).count() == 1


def test_withdraw_individual(open_event):
    a, b, c = sign_up(open_event, ["A", "B", "C"])
    individuals.withdraw_individual(c)
    individuals.draw_individual_pairs(open_event, seed="s")
    a.refresh_from_db()
    refused(individuals.withdraw_individual, a, contains="已抽签组队")
    with pytest.raises(EntryError, match="没有单人报名"):
        individuals.draw_individual_pairs(make_event("empty", "shenzhen-community"), "1")

"""Issue 28 item 8: union-games over/under-burying, the organiser choice wrong_bury_levels.

003 一.19 "庄家多埋或少埋底牌,抓分方直接上庄，并按得分每满40分升1级的原则升级，最多只能连升3级" does not say where
the 40s are counted from. The default reading (every_40, what the software did) counts from 0: 80 → take the stage
and go up 2. The other (from_takeover, the table's reading) counts as 一.17's take-over table does, from 80: 80 →
take the stage and go up none, 120 → 1, 160 → 2, 200 or more → 3.
"""
import copy

import pytest

from rulings import services
from rulings.engine import PenaltyLedger, validate_sanctions
from scoring.profiles import load_profile
from scoring.services import record_hand
from tests.conftest import refused
from tournament.events import rule_choices

CLAUSE = "一.19（庄家多埋或少埋底牌，抓分方直接上庄，并按得分每满40分升1级，最多只能连升3级）"


def bury(reading=None):
    profile = load_profile("union-games", {"wrong_bury_levels": reading} if reading else None)
    return PenaltyLedger(profile).record("wrong_bury", "NS", role="declarers")


# --- pure: both readings ------------------------------------------------------------------------------

@pytest.mark.parametrize("points, every_40, from_takeover", [
    (0, 0, 0), (35, 0, 0), (40, 1, 0), (75, 1, 0), (80, 2, 0), (115, 2, 0), (120, 3, 1), (155, 3, 1),
    (160, 3, 2), (195, 3, 2), (200, 3, 3), (280, 3, 3), (-20, 0, 0)])
def test_both_readings_count_the_40s_and_stop_at_3(points, every_40, from_takeover):
    """003 一.19 "按得分每满40分升1级的原则升级，最多只能连升3级": from 0 (default) or from 80 (一.17's table)."""
    assert load_profile("union-games").reading("wrong_bury_levels") == "every_40"
    assert bury().effect.levels_for(points) == every_40
    assert bury("from_takeover").effect.levels_for(points) == from_takeover


def test_either_way_the_defenders_take_the_stage():
    """003 一.19 "抓分方直接上庄": the stage changes whatever the points, the 下家 declares."""
    for reading in ("every_40", "from_takeover"):
        kwargs = bury(reading).effect.award_kwargs("5", defender_points=40)
        assert (kwargs["stage"], kwargs["gainer"], kwargs["next_declarer"]) == ("change", "EW", "next")
    assert "对方按得分每满40分升1级，最多3级" in bury().explanation
    assert "对方按得分80分以上每满40分升1级，最多3级" in bury("from_takeover").explanation


def test_counting_from_needs_the_points_per_level_and_multiples_of_5():
    table = copy.deepcopy(load_profile("union-games").sanctions)          # the profile is cached: a copy
    node = table["offences"]["wrong_bury"]["by_role"]["declarers"]
    node.pop("levels_per_points")
    node.pop("max_levels")
    node["levels_from_points"] = 80
    path = "sanctions.offences.wrong_bury.by_role.declarers.levels_from_points"
    with refused(path):
        validate_sanctions(table, "s")
    node.update(levels_per_points=40, levels_from_points=82)
    with refused(path):
        validate_sanctions(table, "s")


# --- through the services: the case, 80 after the bury ----------------------------------------------

@pytest.fixture
def union_table(make_match, make_user):
    match = make_match("union-games")
    referee, organiser = make_user("table_referee"), make_user("organiser")
    match.referees.add(referee)
    return match, referee, organiser


@pytest.mark.django_db
@pytest.mark.parametrize("reading, ew_level", [(None, "4"), ("from_takeover", "2")])
def test_eighty_after_a_wrong_bury(union_table, reading, ew_level):
    """003 一.19: NS declare 2 and over-bury, EW score 80 → EW declare (W, N's 下家) and go up 2 (every_40)
    or none (from_takeover: 80–115 is a bare take-over in 一.17)."""
    match, referee, organiser = union_table
    if reading:
        rule_choices.set_choices(match.round.stage.event, organiser, {"wrong_bury_levels": reading})
        match.refresh_from_db()
    record_hand(match, referee, number=1, trump="S", defender_points=80, declarer="N")
    services.record_ruling(match, referee, "wrong_bury", "NS", role="declarers", hand_number=1)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("2", ew_level)


@pytest.mark.django_db
def test_seventy_five_after_a_wrong_bury_still_changes_the_stage(union_table):
    """003 一.19 "抓分方直接上庄" under from_takeover: 75 would keep NS on stage (+1), the bury gives EW the stage."""
    match, referee, organiser = union_table
    rule_choices.set_choices(match.round.stage.event, organiser, {"wrong_bury_levels": "from_takeover"})
    match.refresh_from_db()
    record_hand(match, referee, number=1, trump="S", defender_points=75, declarer="N")
    services.record_ruling(match, referee, "wrong_bury", "NS", role="declarers", hand_number=1)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("2", "2")


@pytest.mark.django_db
def test_the_rule_choices_page_shows_both_readings(union_table, client):
    match, _referee, organiser = union_table
    client.force_login(organiser)
    html = client.get(f"/manage/{match.round.stage.event.slug}/rule-choices/").content.decode()
    assert CLAUSE in html
    assert "从0分起每满40分升1级：得80分上庄升2级" in html
    assert "按胜负判定表：得80分上庄不升级，120分升1级，以上每满40分再升1级" in html
    # issue 28 item 3's choice on the same page: 003 二.3 with 一.16, both readings
    assert "罚分后本副总得分（含扣底所得）限定在0..200分" in html and "先把牌分加罚分限定在0..200分，再如实加上扣底所得" in html

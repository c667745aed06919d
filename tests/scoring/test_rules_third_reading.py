"""Issue 28 items 1–4: a clause-by-clause third reading of the originals (../shared/seeds/) against the engines.

Each test quotes its clause; the cases are the issue's. The table page's side of items 1 and 2 is in
tests/scoring/test_rules_third_reading_browser.py.
"""
import copy

import pytest

from demo.hands import scratch_match
from rulings.engine import PenaltyLedger
from scoring.engine import LastTrick, MatchState, settle_hand
from scoring.models import RuleProfile
from scoring.profiles import load_profile, profile_from_dict
from tests.conftest import refused
from tests.scoring.test_table_page import record
from tournament import roles
from tournament.models import Match

CL, UG, SZ = "company-league", "union-games", "shenzhen-community"


# --- 1. a bottom re-buried by the side that overturned trump (004 七.1, 七.3) ------------------------------

def test_declarers_capture_a_bottom_the_defenders_reburied():
    """004 七.1 "不论做庄与否，最后扣底牌一方胜为保底，另一方胜则为抠底"; 七.3 "最后由进攻方扣底牌时，防守方抠底，
    则进攻方所捉分须扣减抠底所得分": EW 90, NS win the last trick with a trump pair, bottom 20 → 90 − 80 = 10."""
    r = settle_hand(load_profile(CL), declarer_level="5", defender_level="5", defender_points=90,
                    bottom_points=20, declarer_seat="N",
                    last_trick=LastTrick("declarers", "pair", buried_by="defenders"))
    assert r.defender_points == 10 and r.declarer_keeps
    assert (r.declarer_level, r.defender_level, r.next_declarer) == ("7", "5", "S")
    # the page's old reading (the declarers buried the bottom and kept it) gave EW 90: a take-over
    old = settle_hand(load_profile(CL), declarer_level="5", defender_level="5", defender_points=90,
                      bottom_points=20, declarer_seat="N", last_trick=LastTrick("declarers", "pair"))
    assert old.defender_points == 90 and not old.declarer_keeps


def test_the_reburiers_keep_their_own_bottom():
    """004 七.1 "最后扣底牌一方胜为保底": EW re-buried, EW win the last trick with 70 → 70 (not 70 + 80), NS +1."""
    r = settle_hand(load_profile(CL), declarer_level="5", defender_level="5", defender_points=70,
                    bottom_points=20, declarer_seat="N",
                    last_trick=LastTrick("defenders", "pair", buried_by="defenders"))
    assert r.defender_points == 70 and r.declarer_keeps and r.declarer_level == "6"


@pytest.mark.django_db
@pytest.mark.parametrize("won_by, points, final, levels", [("declarers", 90, 10, ("7", "5")),
                                                          ("defenders", 70, 70, ("6", "5"))])
def test_the_hand_api_path_keeps_who_buried_the_bottom(make_user, won_by, points, final, levels):
    """004 七.1/七.3 through the services the table page posts to (last_trick.buried_by), the issue's two cases:
    NS declare 5, EW 5, EW re-buried 20; NS win the last trick with a pair, EW 90 → 10, NS +2, S declares; the
    re-buriers win it with 70 → 70, NS +1."""
    user = make_user(roles.TABLE_REFEREE)
    match = scratch_match(CL, referees=[user])
    for number, hand_points in enumerate((0, 200, 80), start=1):  # NS 5 (S); EW take over to 5 (E); NS back
        record(match, user, number, hand_points, declarer="N" if number == 1 else None)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("5", "5")
    hand = record(match, user, 4, points, bottom_points=20,
                  last_trick={"by": won_by, "shape": "pair", "buried_by": "defenders"})
    assert hand.final_points == final and hand.declarer_keeps and hand.next_declarer == "S"
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == levels


def test_profiles_without_reburying_refuse_it():
    """002/003/000 have no 七.3: only the declaring side buries the bottom."""
    with refused("last_trick.buried_by"):
        settle_hand(load_profile(UG), declarer_level="5", defender_level="5", defender_points=90,
                    bottom_points=20, last_trick=LastTrick("declarers", "pair", buried_by="defenders"))


# --- 2. a capture with a J of another suit (004 四.5) ----------------------------------------------------

def test_a_capture_with_another_suits_j_drops_to_6_even_as_a_trump_play():
    """004 四.5 "用主J抠底可将对方降到2，用副J抠底可将对方降到6": at level J every J is a trump, so the play is a
    trump play and only main_rank says 副J. NS at J, EW at 8, EW reach 80 with a 副J → NS 6."""
    p = load_profile(CL)
    other = settle_hand(p, declarer_level="J", defender_level="8", defender_points=60, bottom_points=10,
                        declarer_seat="N",
                        last_trick=LastTrick("defenders", "single", trump=True, rank="J", main_rank=False))
    assert other.defender_points == 80 and other.rank_capture and other.declarer_level == "6"
    main = settle_hand(p, declarer_level="J", defender_level="8", defender_points=60, bottom_points=10,
                       declarer_seat="N",
                       last_trick=LastTrick("defenders", "single", trump=True, rank="J", main_rank=True))
    assert main.declarer_level == "2"
    # what the page sent before (trump ticked, no main_rank): read as 主J
    page = settle_hand(p, declarer_level="J", defender_level="8", defender_points=60, bottom_points=10,
                       declarer_seat="N", last_trick=LastTrick("defenders", "single", trump=True, rank="J"))
    assert page.declarer_level == "2"


@pytest.mark.django_db
def test_the_hand_api_path_sends_another_suits_j(make_user):
    """004 四.5 through the services: NS at J (S declares), EW at 8, EW reach 80 with a 副J → NS 6, EW take over."""
    user = make_user(roles.TABLE_REFEREE)
    match = scratch_match(CL, referees=[user])
    for number, hand_points in enumerate((200, 0, 80, 0, 0, 0), start=1):
        record(match, user, number, hand_points, declarer="N" if number == 1 else None)
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("J", "8")
    record(match, user, 7, 60, bottom_points=10,
           last_trick={"by": "defenders", "shape": "single", "trump": True, "rank": "J", "main_rank": False})
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("6", "8")


@pytest.mark.django_db
def test_the_table_page_asks_main_or_other_only_where_the_profile_tells_them_apart(client, make_user):
    """004 四.5–6: J → 2 or 6 (asked); A → J with any A (not asked). 七.3: reburying asked under 004 only."""
    user = make_user(roles.TABLE_REFEREE)
    client.force_login(user)
    match = scratch_match(CL, referees=[user])
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert 'data-ranks="J"' in html and 'name="lt_main"' in html and 'name="lt_buried_by"' in html
    match = scratch_match(UG, referees=[user])
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert 'name="lt_main"' not in html and 'name="lt_buried_by"' not in html


@pytest.mark.django_db
def test_the_page_asks_main_or_other_a_where_a_profile_tells_them_apart(client, make_user):
    """Issue 28 item 2 "(and 主A/副A where the profile distinguishes them)": an organiser's version of 004 whose A
    capture drops to J with 主A and to Q with 副A makes the page ask for A as for J."""
    user = make_user(roles.TABLE_REFEREE)
    client.force_login(user)
    match = scratch_match(CL, referees=[user])
    data = copy.deepcopy(match.profile.data)
    capture_a = next(rc for rc in data["rank_captures"] if rc["rank"] == "A")
    capture_a["drop_to_other"] = "Q"
    Match.objects.filter(pk=match.pk).update(
        profile=RuleProfile.objects.create(slug="cl-a", version=1, name="主A副A", data=data))
    html = client.get(f"/tables/{match.pk}/").content.decode()
    assert 'data-ranks="A,J"' in html


# --- 3. union 二.3 with 一.16: the cap on the hand's whole score ----------------------------------------

def union(reading=None):
    return load_profile(UG, choices={"fine_cap": reading} if reading else None)


def test_the_fine_cap_bounds_the_whole_score_by_default():
    """003 二.3 "罚分后得分方上限为200分，下限为0分" with 一.16 (the bottom is added into the side's score):
    EW trick 20, fined 80, capture a bottom of 20 ×4 → 20: NS keep, +2."""
    assert union().reading("fine_cap") == "whole_score"
    r = settle_hand(union(), declarer_level="5", defender_level="5", defender_points=20, penalty_points=-80,
                    bottom_points=20, declarer_seat="N", last_trick=LastTrick("defenders", "pair"))
    assert r.defender_points == 20 and r.declarer_keeps and r.levels_gained == 2
    # top: 170 + 80 fine + 20 ×2 = 290, capped at 200 → +3
    r = settle_hand(union(), declarer_level="5", defender_level="5", defender_points=170, penalty_points=80,
                    bottom_points=20, declarer_seat="N", last_trick=LastTrick("defenders", "single"))
    assert r.defender_points == 200 and r.levels_gained == 3
    assert "罚分后本副得分限定在0..200：290→200" in r.explanation
    # no fine: 一.16 "如实往上加", the bottom counts in full
    r = settle_hand(union(), declarer_level="3", defender_level="3", defender_points=200, bottom_points=20,
                    last_trick=LastTrick("defenders", "single"))
    assert r.defender_points == 240 and r.levels_gained == 4


def test_the_other_reading_clamps_before_the_bottom():
    """003 二.3 read as a bound on trick points + fines only: −60 → 0, then 20 ×4 → 80, a take-over; 250 → 200
    + 40 = 240 → +4."""
    r = settle_hand(union("before_bottom"), declarer_level="5", defender_level="5", defender_points=20,
                    penalty_points=-80, bottom_points=20, last_trick=LastTrick("defenders", "pair"))
    assert r.defender_points == 80 and not r.declarer_keeps
    r = settle_hand(union("before_bottom"), declarer_level="5", defender_level="5", defender_points=170,
                    penalty_points=80, bottom_points=20, last_trick=LastTrick("defenders", "single"))
    assert r.defender_points == 240 and r.levels_gained == 4


def test_a_stored_version_without_the_key_reads_as_before():
    """A profile version stored before clamp_scope existed keeps the before-the-bottom clamp it was played with."""
    data = union().to_dict()
    del data["scoring"]["clamp_scope"]
    data["organiser_defaults"] = [e for e in data["organiser_defaults"]
                                  if not (isinstance(e, dict) and e["choice"] == "fine_cap")]
    data["choices"] = {}
    assert not profile_from_dict(data, source="stored").clamp_whole


# --- 4. shenzhen 第十四条 with 第十七条: a sanction's level award at a must-play level -----------------------

def award(reading, code, side, *, role, choice=None, ns="J", ew="8"):
    profile = load_profile(SZ, choices={"award_at_must_play": reading} if reading else None)
    sanction = PenaltyLedger(profile).record(code, side, role=role, **({"choice": choice} if choice else {}))
    state = MatchState.new(profile, levels={"NS": ns, "EW": ew}, declarer="N")
    return state.award(**sanction.effect.award_kwargs(ns, sanction.explanation))


def test_an_award_stops_on_the_must_play_j_by_default():
    """000 第十四条 "2，J，A为必打牌" with 第十七条（三）"错误家为防守方则庄家方升两级" and（六）"如果是台下方，得分无效，
    且台上方升5级": NS declaring J have not played J, so they stay on J as a scored hand's stop would."""
    assert load_profile(SZ).reading("award_at_must_play") == "stop"
    state = award(None, "card_count", "EW", role="defenders")
    assert state.levels == {"NS": "J", "EW": "8"} and state.declarer == "N"
    state = award(None, "hidden_card", "EW", role="defenders", choice="established")
    assert state.levels == {"NS": "J", "EW": "8"}
    assert "NS升5级：J必打，须坐庄打过J，停在J" in state.hands[-1].explanation


def test_the_other_reading_lets_an_award_pass_the_j():
    """000 第十七条（三）/（六） read as awards free of 第十四条: J → K for 升两级; J → A for 升5级 (A must be played)."""
    assert award("pass", "card_count", "EW", role="defenders").levels == {"NS": "K", "EW": "8"}
    state = award("pass", "hidden_card", "EW", role="defenders", choice="established")
    assert state.levels == {"NS": "A", "EW": "8"}

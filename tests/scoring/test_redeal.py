"""000 第五条: 第二副牌起 … 至抓牌结束没有牌手亮主时，庄家下台，重洗重抓，下家坐庄 — recorded as a hand with
no score (service, API, table page); the rotation then expects the 下家."""
import pytest
from rest_framework.test import APIClient

from common.errors import UserError
from scoring import services
from scoring.models import Hand
from tests.conftest import login
from tournament import roles


@pytest.fixture
def shenzhen(db, make_user):
    from demo.hands import scratch_match

    referee = make_user(roles.TABLE_REFEREE)
    return scratch_match(referees=[referee]), referee


def test_a_redeal_is_a_hand_with_no_score_and_the_next_player_declares(shenzhen):
    match, referee = shenzhen
    services.record_hand(match, referee, number=1, trump="S", defender_points=45, declarer="N")   # NS 2→4, S declares next
    written = services.record_hand(match, referee, number=2, outcome="redeal")
    hand = written.hand
    assert (hand.outcome, hand.trump, hand.final_points, hand.declarer_seat) == ("redeal", "", None, "S")
    state = written.replay.state
    assert state.levels == {"NS": "4", "EW": "2"} and state.declarer == "E"        # S's 下家 declares: the stage changes
    assert written.replay.state.hands[-1].kind == "redeal"
    with pytest.raises(UserError):                                                 # the rotation expects E now
        services.record_hand(match, referee, number=3, trump="S", defender_points=45, declarer="N")
    third = services.record_hand(match, referee, number=3, trump="S", defender_points=45)
    assert third.hand.declarer_seat == "E" and third.replay.state.levels == {"NS": "4", "EW": "4"}


def test_no_redeal_before_the_first_hand_nor_under_other_rules(shenzhen, make_user):
    """第五条: the first deal is simply dealt again; 002 八 has trump from the bottom instead."""
    from demo.hands import scratch_match

    match, referee = shenzhen
    with pytest.raises(UserError) as refused:
        services.record_hand(match, referee, number=1, outcome="redeal")
    assert refused.value.field == "declarer" and Hand.objects.count() == 0
    other = scratch_match("two-deck-standard", referees=[referee])
    services.record_hand(other, referee, number=1, trump="S", defender_points=45, declarer="N")
    with pytest.raises(UserError) as refused:
        services.record_hand(other, referee, number=2, outcome="redeal")
    assert refused.value.field == "redeal"


def test_the_api_records_a_redeal_and_still_wants_trump_for_a_played_hand(shenzhen):
    match, referee = shenzhen
    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/matches/{match.pk}/hands/"
    assert api.post(url, {"number": 1, "trump": "S", "defender_points": 45, "declarer": "N"},
                    format="json").status_code == 201
    missing = api.post(url, {"number": 2, "defender_points": 45}, format="json")
    assert missing.status_code == 400 and missing.json()["field"] == "trump"
    answer = api.post(url, {"number": 2, "outcome": "redeal"}, format="json")
    assert answer.status_code == 201 and answer.json()["hand"]["outcome"] == "redeal"
    state = answer.json()["state"]
    assert state["declarer"] == "E" and state["hands"][-1]["kind"] == "redeal" and state["next_number"] == 3


@pytest.mark.browser
def test_the_table_page_records_a_redeal(transactional_db, live_server, page, make_user):
    from demo.hands import scratch_match

    page.set_viewport_size({"width": 390, "height": 844})
    referee = make_user(roles.TABLE_REFEREE)
    match = scratch_match(referees=[referee])
    services.record_hand(match, referee, number=1, trump="S", defender_points=45, declarer="N")
    login(page, live_server, referee)
    page.goto(f"{live_server.url}/tables/{match.pk}/")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#redeal-form button[type=submit]")
    page.wait_for_function("document.querySelectorAll('#table-history article.hand').length === 2")
    assert "重洗重抓" in page.inner_text("#table-history") and "东" in page.inner_text("#declarer-line")  # 27.14
    assert page.inner_text("#level-NS") == "4" and page.inner_text("#level-EW") == "2"
    assert match.hands.get(number=2).outcome == "redeal"

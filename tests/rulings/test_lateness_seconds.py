"""Lateness in minutes and seconds, stored on the ruling, and the preview of a lateness recorded hands
later: which hand it changes and how the current levels move (issue 13, item 4)."""
import pytest
from rest_framework.test import APIClient

from rulings import services
from rulings.models import Ruling
from scoring.services import record_hand
from tournament.models import Match
from tournament.records.adjustments import match_state


def test_seconds_are_stored_and_replayed(table):
    """000 第十七条（一） 超过5分钟: 5 min 00 s is no forfeit, 5 min 30 s is."""
    match, users = table
    on_time = services.record_ruling(match, users["referee"], "late", "NS", minutes=5, seconds=0)
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and "match_forfeit" not in on_time.sanction["kinds"]
    late = services.record_ruling(match, users["referee"], "late", "EW", minutes=5, seconds=30)
    assert Ruling.objects.get(pk=late.pk).seconds == 30
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FORFEIT, match.ns)


@pytest.fixture
def api(table):
    match, users = table
    client = APIClient()
    client.force_authenticate(users["referee"])
    return client


def test_the_api_takes_seconds_and_refuses_sixty(api, table):
    match, _ = table
    url = f"/api/matches/{match.pk}/rulings/"
    refused = api.post(url, {"code": "late", "side": "NS", "minutes": 5, "seconds": 60}, format="json")
    assert refused.status_code == 400 and refused.json()["field"] == "seconds"
    answer = api.post(url, {"code": "late", "side": "NS", "minutes": 5, "seconds": 30}, format="json")
    assert answer.status_code == 201 and answer.json()["seconds"] == 30
    assert "match_forfeit" in answer.json()["sanction"]["kinds"]


def test_a_lateness_recorded_later_says_which_hand_and_how_the_levels_move(make_match, make_user):
    """002 二 迟到6—10分钟 … 第一副牌: recorded after two hands, the 20 points go to hand 1 and the
    current levels move; the preview says so before anything is stored, and the record does the same."""
    match = make_match("two-deck-standard")
    referee = make_user("table_referee")
    match.referees.add(referee)
    record_hand(match, referee, number=1, trump="S", defender_points=65, declarer="N")
    record_hand(match, referee, number=2, trump="S", defender_points=40)
    before = dict(match_state(match).levels)
    client = APIClient()
    client.force_authenticate(referee)
    body = {"code": "late", "side": "NS", "minutes": 5, "seconds": 30}
    answer = client.post(f"/api/matches/{match.pk}/rulings/preview/", body, format="json").json()
    impact = answer["impact"]
    assert (impact["hand_number"], impact["hand_in_play"], impact["earlier_hand"]) == (1, 3, True)
    assert impact["levels_before"] == before and impact["levels_after"] != before
    assert "第1副" in impact["text"] and "→" in impact["text"]
    assert Ruling.objects.count() == 0
    client.post(f"/api/matches/{match.pk}/rulings/", body, format="json")
    assert dict(match_state(match).levels) == impact["levels_after"]


def test_a_ruling_on_the_hand_in_play_says_nothing_about_earlier_hands(api, table):
    match, _ = table
    answer = api.post(f"/api/matches/{match.pk}/rulings/preview/", {"code": "delay", "side": "NS"},
                      format="json").json()
    assert answer["impact"]["earlier_hand"] is False and answer["impact"]["text"] == ""

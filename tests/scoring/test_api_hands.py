"""The hands API: recording, sequence and permission errors, corrections with history, idempotent retries."""
import pytest

from scoring.models import Hand
from tests.scoring.test_hands_support import (  # noqa: F401  (fixtures)
    chief,
    get_state,
    hand_body,
    match,
    post_correction,
    post_hand,
    referee,
)
from tournament import roles
from tournament.models import Event, Match

pytestmark = pytest.mark.django_db


def win_match(client, match):
    """Five hands of 0 defender points: NS climb 2→6→10→J→A and pass A (shenzhen-community)."""
    for number in range(1, 6):
        response = post_hand(client, match, hand_body(number, 0, declarer="N" if number == 1 else None))
        assert response.status_code == 201, response.json()
    return response


# --- recording ---------------------------------------------------------------------------

def test_first_hand_updates_levels_declarer_and_match(client, match, referee, frozen_now):
    client.force_login(referee)
    response = post_hand(client, match, hand_body(1, 45, declarer="N"))
    assert response.status_code == 201, response.json()
    state = response.json()["state"]
    assert state["levels"] == {"NS": "4", "EW": "2"}
    assert state["declarer"] == "S" and state["next_number"] == 2 and state["winner"] is None
    assert state["hands"][0]["explanation"] == ["防家得分45，庄家方升2级：2→4", "下一副由S坐庄（N的对家）"]
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level, match.status) == ("4", "2", Match.Status.PLAYING)
    assert match.started_at == frozen_now.at
    hand = Hand.objects.get(match=match)
    assert (hand.recorded_by, hand.recorded_at, hand.level_played, hand.next_declarer) == (
        referee, frozen_now.at, "2", "S")


def test_take_over_stops_on_must_play_and_gives_back(client, match, referee):
    """RULES.md: defenders still at 2 who take over with 120+ stay at 2; the lost levels come off the declarers."""
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    state = post_hand(client, match, hand_body(2, 130)).json()["state"]
    assert state["levels"] == {"NS": "2", "EW": "2"} and state["declarer"] == "E"
    assert "少升2级由庄家方退回：4→2" in state["hands"][1]["explanation"]


def test_bottom_captured_is_multiplied(client, match, referee):
    client.force_login(referee)
    body = hand_body(1, 60, declarer="N", bottom_points=15,
                     last_trick={"by": "defenders", "shape": "pair", "trump": True})
    hand = post_hand(client, match, body).json()["hand"]
    assert hand["final_points"] == 60 + 15 * 4 and hand["declarer_keeps"] is False


def test_state_lists_allowed_actions_per_user(client, match, referee, make_user):
    client.force_login(referee)
    assert get_state(client, match).json()["actions"] == {"record": True, "correct": False}
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    assert get_state(client, match).json()["actions"] == {"record": True, "correct": True}
    client.force_login(make_user(roles.ORGANISER))
    assert get_state(client, match).json()["actions"] == {"record": False, "correct": False}


# --- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("body, field", [
    (hand_body(1, 45), "declarer"),                                  # first hand needs a declarer
    (hand_body(1, 42, declarer="N"), "defender_points"),             # not a multiple of 5
    (hand_body(1, 405, declarer="N"), "defender_points"),            # out of range
    (hand_body(1, 45, declarer="N", bottom_points=7), "bottom_points"),
    (hand_body(1, 45, declarer="N", last_trick={"by": "defenders", "shape": "tractor", "pairs": 1}),
     "last_trick.pairs"),
    (hand_body(1, 45, declarer="X"), "declarer"),
    (hand_body(1, 45, declarer="N", trump="Z"), "trump"),
    ({"number": 1, "trump": "H", "declarer": "N"}, "defender_points"),
    (hand_body(2, 45, declarer="N"), "number"),                      # skips hand 1
])
def test_bad_input_is_400_naming_the_field_in_chinese(client, match, referee, body, field):
    client.force_login(referee)
    response = post_hand(client, match, body)
    assert response.status_code == 400
    data = response.json()
    assert data["field"] == field
    assert any("\u4e00" <= ch <= "\u9fff" for ch in data["detail"]), data["detail"]
    assert not Hand.objects.exists()


def test_declarer_contradicting_the_rotation_is_refused(client, match, referee):
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    response = post_hand(client, match, hand_body(2, 45, declarer="E"))
    assert response.status_code == 400 and response.json()["field"] == "declarer"


def test_number_already_recorded_is_a_conflict(client, match, referee):
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    response = post_hand(client, match, hand_body(1, 45, declarer="N"))
    assert response.status_code == 409
    assert "1" in response.json()["detail"]
    assert Hand.objects.count() == 1


def test_won_match_refuses_more_hands(client, match, referee):
    client.force_login(referee)
    last = win_match(client, match).json()["state"]
    assert last["winner"] == "NS" and last["actions"]["record"] is False
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.winner == match.ns
    response = post_hand(client, match, hand_body(6, 40))
    assert response.status_code == 409
    assert Hand.objects.count() == 5


def test_finished_match_refuses_hands(client, match, referee):
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    client.force_login(referee)
    response = post_hand(client, match, hand_body(1, 45, declarer="N"))
    assert response.status_code == 409 and response.json()["detail"]
    assert not Hand.objects.exists()


# --- permissions -----------------------------------------------------------------------------

def test_referee_not_assigned_is_refused(client, match, make_user):
    client.force_login(make_user(roles.TABLE_REFEREE))
    response = post_hand(client, match, hand_body(1, 45, declarer="N"))
    assert response.status_code == 403 and response.json()["detail"]
    assert not Hand.objects.exists()


@pytest.mark.parametrize("role", [roles.ORGANISER, roles.ARBITRATION, None])
def test_other_roles_cannot_record(client, match, make_user, role):
    client.force_login(make_user(role))
    assert post_hand(client, match, hand_body(1, 45, declarer="N")).status_code == 403


def test_anonymous_reads_but_cannot_record(client, match):
    assert get_state(client, match).status_code == 200
    assert client.get(f"/api/matches/{match.pk}/hands/").status_code == 200
    assert post_hand(client, match, hand_body(1, 45, declarer="N")).status_code in (401, 403)
    assert not Hand.objects.exists()


def test_unpublished_event_hidden_from_anonymous(client, match, referee):
    Event.objects.filter(pk=match.round.stage.event_id).update(published=False)
    assert get_state(client, match).status_code == 404
    client.force_login(referee)
    assert get_state(client, match).status_code == 200


def test_chief_referee_records_anywhere(client, match, chief):
    assert not match.referees.filter(pk=chief.pk).exists()
    client.force_login(chief)
    assert post_hand(client, match, hand_body(1, 45, declarer="N")).status_code == 201


# --- corrections --------------------------------------------------------------------------------

def test_correction_supersedes_and_history_keeps_both(client, match, referee, chief, frozen_now):
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    post_hand(client, match, hand_body(2, 130))
    frozen_now.advance(minutes=3)
    client.force_login(chief)
    response = post_correction(client, match, 2, hand_body(2, 30))
    assert response.status_code == 201, response.json()
    state = response.json()["state"]
    assert state["levels"] == {"NS": "7", "EW": "2"}           # S declares at 4, defenders 30: +3
    assert state["hands"][1]["explanation"][0].startswith("防家得分30")
    match.refresh_from_db()
    assert (match.ns_level, match.ew_level) == ("7", "2")

    history = client.get(f"/api/matches/{match.pk}/hands/").json()
    assert [(h["number"], h["version"], h["current"]) for h in history] == [(1, 1, True), (2, 1, False), (2, 2, True)]
    old = history[1]
    assert old["defender_points"] == 130 and old["recorded_by"] == referee.username
    assert old["superseded_by"]["recorded_by"] == chief.username
    assert old["superseded_by"]["version"] == 2
    assert Hand.objects.get(number=2, version=2).recorded_at == frozen_now.at


def test_only_the_last_hand_can_be_corrected(client, match, referee):
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    post_hand(client, match, hand_body(2, 45))
    response = post_correction(client, match, 1, hand_body(1, 30, declarer="N"))
    assert response.status_code == 400 and response.json()["field"] == "number"
    assert post_correction(client, match, 3, hand_body(3, 30)).status_code == 409
    assert Hand.objects.count() == 2


def test_correcting_the_winning_hand_reopens_the_match(client, match, referee, make_user):
    client.force_login(referee)
    win_match(client, match)
    assert post_correction(client, match, 5, hand_body(5, 100)).status_code in (403, 409)  # over: not the referee's
    client.force_login(make_user(roles.CHIEF_REFEREE))                                   # the chief corrects it
    response = post_correction(client, match, 5, hand_body(5, 100))
    assert response.status_code == 201
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.winner is None
    assert response.json()["state"]["declarer"] == "W"          # N lost: his 下家 declares


def test_correction_needs_permission(client, match, referee, make_user):
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    client.force_login(make_user(roles.TABLE_REFEREE))
    assert post_correction(client, match, 1, hand_body(1, 30, declarer="N")).status_code == 403


# --- retries ------------------------------------------------------------------------------------

def test_idempotent_retry_stores_one_hand(client, match, referee):
    client.force_login(referee)
    first = post_hand(client, match, hand_body(1, 45, declarer="N"), HTTP_IDEMPOTENCY_KEY="k-42")
    again = post_hand(client, match, hand_body(1, 45, declarer="N"), HTTP_IDEMPOTENCY_KEY="k-42")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replay"] == "true" and again.json() == first.json()
    assert Hand.objects.count() == 1

"""The rulings API: preview, record with Idempotency-Key retries applied once, logs, errors."""
import pytest
from rest_framework.test import APIClient

from rulings.models import Ruling


@pytest.fixture
def client(table):
    match, users = table
    api = APIClient()
    api.force_login(users["referee"])
    return api, match, users


def test_preview_shows_the_sanction_and_stores_nothing(client):
    api, match, _ = client
    response = api.post(f"/api/matches/{match.pk}/rulings/preview/", {"code": "late", "side": "NS", "minutes": 6},
                        format="json")
    assert response.status_code == 200
    sanction = response.json()["sanction"]
    assert "match_forfeit" in sanction["kinds"] and "迟到6分钟" in sanction["explanation"]
    assert not sanction["needs_approval"] and "自动生效" in sanction["explanation"]   # 000 第十七条（一）
    assert Ruling.objects.count() == 0


def test_a_retry_with_the_same_idempotency_key_is_applied_once(client):
    api, match, _ = client
    url = f"/api/matches/{match.pk}/rulings/"
    body = {"code": "failed_throw", "side": "EW", "cards": 3, "role": "defenders"}
    first = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="0b6f1c1e-key-1")
    again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="0b6f1c1e-key-1")
    assert first.status_code == again.status_code == 201
    assert again["Idempotent-Replay"] == "true" and again.json() == first.json()
    assert Ruling.objects.filter(match=match).count() == 1
    other = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="0b6f1c1e-key-2")
    assert other.status_code == 201 and Ruling.objects.filter(match=match).count() == 2


def test_the_key_is_also_kept_on_the_ruling(client):
    api, match, _ = client
    api.post(f"/api/matches/{match.pk}/rulings/", {"code": "delay", "side": "NS"}, format="json",
             HTTP_IDEMPOTENCY_KEY="abc")
    assert Ruling.objects.get().idempotency_key == "abc"


def test_the_record_answer_carries_state_explanation_and_clause(client):
    api, match, users = client
    response = api.post(f"/api/matches/{match.pk}/rulings/", {"code": "delay", "side": "NS", "note": "超时"},
                        format="json")
    data = response.json()
    assert data["state"] == "in_force" and data["state_label"] == "生效"
    assert data["clause"] == "第十七条（九）" and data["recorded_by"] == users["referee"].username
    assert data["explanation"].startswith("拖延比赛时间") and data["note"] == "超时"


@pytest.mark.parametrize("body, field", [
    ({"code": "late", "side": "NS"}, "minutes"),
    ({"code": "teleport", "side": "NS"}, "code"),
    ({"code": "card_count", "side": "EW"}, "role"),
])
def test_bad_input_is_a_400_naming_the_field(client, body, field):
    api, match, _ = client
    response = api.post(f"/api/matches/{match.pk}/rulings/", body, format="json")
    assert response.status_code == 400 and response.json()["field"] == field


def test_the_match_log_lists_voids_and_the_table(client):
    api, match, _ = client
    api.post(f"/api/matches/{match.pk}/rulings/", {"code": "delay", "side": "NS"}, format="json")
    api.post(f"/api/matches/{match.pk}/rulings/void-last/", {"reason": "记错了"}, format="json")
    log = APIClient().get(f"/api/matches/{match.pk}/rulings/").json()
    assert log["match"]["table"] == 1 and log["match"]["hand_number"] == 1
    assert [r["state"] for r in log["rulings"]] == ["void"] and log["rulings"][0]["void"]["note"] == ""  # staff only
    assert api.get(f"/api/matches/{match.pk}/rulings/").json()["rulings"][0]["void"]["note"] == "记错了"


def test_the_event_log_has_every_table(client, make_match):
    api, match, users = client
    second = make_match(round=match.round, table=2)
    second.referees.add(users["referee"])
    for m in (match, second):
        api.post(f"/api/matches/{m.pk}/rulings/", {"code": "delay", "side": "EW"}, format="json")
    log = APIClient().get(f"/api/events/{match.round.stage.event.slug}/rulings/").json()
    assert [r["table"] for r in log["rulings"]] == [1, 2]


def test_a_choice_through_the_api(make_match, make_user):
    match = make_match("two-deck-standard")
    referee = make_user("table_referee")
    match.referees.add(referee)
    api = APIClient()
    api.force_login(referee)
    ruling = api.post(f"/api/matches/{match.pk}/rulings/", {"code": "hidden_card", "side": "NS", "role": "defenders"},
                      format="json").json()
    assert ruling["state"] == "pending" and sorted(ruling["sanction"]["options"]) == ["40", "step_down"]
    chosen = api.post(f"/api/rulings/{ruling['id']}/choice/", {"side": "EW", "option": "40"}, format="json")
    assert chosen.status_code == 200
    assert chosen.json()["state"] == "in_force" and chosen.json()["choice_made"]["option"] == "40"

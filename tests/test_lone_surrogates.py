"""Issue 26, item 5: a lone surrogate in a JSON body (a "\\ud800" escape without its pair) is no character: no
UTF-8 text, so no database and no answer, holds it. Every write answers 400 naming the field (as for a NUL),
never 500, and saves nothing; an escaped pair (one character) is welcome. Forms cannot carry one: Django decodes
their bytes with replacement characters (the event file upload, the one form carrying JSON, is in
tests/tournament/test_transfer_hostile.py)."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from infra.parsers import check_json
from rulings.models import Appeal, Ruling
from tests.conftest import fresh_demo
from tournament.models import Event, EventRole, Match, Pair, ResultDecision, Stage

LONE = "\\ud800"  # as the body's text holds it: the escape
CHINESE = range(0x4E00, 0xA000)


@pytest.fixture
def demo(frozen_demo_for_module, db, frozen_now):
    return fresh_demo(frozen_demo_for_module)


def send(client, method, path, text):
    return getattr(client, method)(path, data=text, content_type="application/json")


def body(template: dict) -> str:
    """The JSON text of ``template`` with every "<LONE>" made the escape itself."""
    return json.dumps(template, ensure_ascii=False).replace("<LONE>", LONE)


def refused(answer, field):
    assert answer.status_code == 400, (answer.status_code, answer.content[:300])
    data = answer.json()
    assert data["field"] == field, data
    assert any(ord(c) in CHINESE for c in data["detail"]), data


def _writes(demo):
    """(who, method, path, body, field, rows that must not change) for every write taking text."""
    match = Match.objects.filter(round__stage__event=demo, status="playing").order_by("pk").first()
    ruling = Ruling.objects.filter(match__round__stage__event=demo).order_by("pk").first()
    day = {"start_date": "2026-12-12", "end_date": "2026-12-12"}
    player = {"name": "张三", "gender": "M"}
    rows = {
        "events": lambda: (Event.objects.count(), Event.objects.get(slug="demo").venue),
        "staff": lambda: EventRole.objects.count(),
        "pairs": lambda: Pair.objects.count(),
        "stages": lambda: Stage.objects.count(),
        "rulings": lambda: Ruling.objects.count(),
        "appeals": lambda: Appeal.objects.count(),
        "decisions": lambda: ResultDecision.objects.count(),
    }
    return [
        ("organiser", "patch", "/api/events/demo/", {"venue": "<LONE>"}, "venue", rows["events"]),
        ("organiser", "patch", "/api/events/demo/", {"name": "赛<LONE>事"}, "name", rows["events"]),
        ("creator", "post", "/api/events/", {"name": "<LONE>", "profile": "union-games", **day}, "name",
         rows["events"]),
        ("organiser", "post", "/api/events/demo/staff/", {"display_name": "<LONE>", "role": "table_referee"},
         "display_name", rows["staff"]),
        ("organiser", "post", "/api/events/demo/entries/", {"unit": "<LONE>", "player1": player,
                                                            "player2": {**player, "name": "李四"}}, "unit",
         rows["pairs"]),
        ("organiser", "post", "/api/events/demo/entries/", {"unit": "莲花", "player1": {**player, "name": "<LONE>"},
                                                            "player2": player}, "player1.name", rows["pairs"]),
        ("organiser", "post", "/api/events/demo/stages/", {"kind": "round_robin", "name": "<LONE>"}, "name",
         rows["stages"]),
        ("chief", "post", f"/api/matches/{match.pk}/rulings/", {"code": "failed_throw", "side": "NS", "cards": 2,
                                                               "role": "declarers", "note": "<LONE>"}, "note",
         rows["rulings"]),
        ("chief", "post", f"/api/rulings/{ruling.pk}/appeals/", {"side": "NS", "grounds": "<LONE>"}, "grounds",
         rows["appeals"]),
        ("chief", "post", f"/api/matches/{match.pk}/result/", {"winner": "NS", "reason": "<LONE>"}, "reason",
         rows["decisions"]),
    ]


def test_a_lone_surrogate_in_a_write_is_refused_naming_its_field(demo, client):
    users = {u.username: u for u in get_user_model().objects.filter(username__in=["organiser", "chief"])}
    users["creator"] = get_user_model().objects.create_user("creator", password="x-secret-1")
    users["creator"].user_permissions.add(Permission.objects.get(content_type__app_label="tournament",
                                                                 codename="add_event"))
    for who, method, path, template, field, rows in _writes(demo):
        client.force_login(users[who])
        before = rows()
        refused(send(client, method, path, body(template)), field)
        assert rows() == before, path


def test_in_a_key_or_deep_inside_it_is_refused_too(demo, client):
    client.force_login(get_user_model().objects.get(username="organiser"))
    answer = send(client, "patch", "/api/events/demo/", body({"ven<LONE>ue": "x"}))  # a key: the body at fault
    assert answer.status_code == 400 and answer.json()["field"] is None
    answer = send(client, "patch", "/api/events/demo/", body({"x": [{"a": 1}, {"b": {"c<LONE>": 1}}]}))
    refused(answer, "x.1.b")  # the object holding the key
    answer = send(client, "patch", "/api/events/demo/", body({"x": ["ok", "<LONE>"]}))
    refused(answer, "x.1")
    answer = send(client, "patch", "/api/events/demo/", '{"venue": "\\u0000"}')  # a NUL names its field now
    refused(answer, "venue")
    answer = send(client, "patch", "/api/events/demo/", '{"venue": "\\udc00\\ud800"}')  # a pair backwards
    refused(answer, "venue")
    assert Event.objects.get(slug="demo").venue != "x"


def test_an_escaped_pair_is_one_character_and_welcome(demo, client):
    client.force_login(get_user_model().objects.get(username="organiser"))
    answer = send(client, "patch", "/api/events/demo/", '{"venue": "文化宫 \\ud83c\\udc04"}')
    assert answer.status_code == 200, answer.content
    assert Event.objects.get(slug="demo").venue == "文化宫 🀄"
    check_json({"a": ["🀄", {"b": "\U0001f004"}]})  # nothing raised


def test_a_form_cannot_carry_one(demo, client):
    """The bytes a lone surrogate would be in UTF-8 reach a form as replacement characters: saved, no 500."""
    client.force_login(get_user_model().objects.get(username="organiser"))
    event = Event.objects.get(slug="demo")
    form = (f"name=x&start_date={event.start_date}&end_date={event.end_date}&profile={event.profile.slug}"
            f"&profile_version={event.profile.version}&format={event.format}&slug=demo&venue=%ED%A0%80")
    answer = client.post(reverse("event_edit", args=["demo"]), data=form,
                         content_type="application/x-www-form-urlencoded")
    assert answer.status_code == 302
    assert Event.objects.get(slug="demo").venue == "\ufffd" * 3
    api = client.patch("/api/events/demo/", data="venue=%ED%A0%80", content_type="application/x-www-form-urlencoded")
    assert api.status_code == 200 and Event.objects.get(slug="demo").venue == "\ufffd" * 3

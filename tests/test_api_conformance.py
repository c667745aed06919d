"""The API accepts what its description says, and refuses what it does not allow (issue 26 item 7): each
finding of schemathesis, the description stating the rule and the server keeping to it."""
import json

import jsonschema
import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from infra.inputs import NOT_BLANK
from tests.conftest import fresh_demo


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def valid(schema, component, body) -> bool:
    """Does ``body`` fit the ``component`` of the description (its references resolved)?"""
    document = json.loads(json.dumps({"$ref": f"#/components/schemas/{component}",
                                      "components": schema["components"]}))
    return jsonschema.Draft7Validator(document).is_valid(body)


@pytest.fixture
def demo(demo_for_module, db):
    return fresh_demo(demo_for_module)


def client_of(username):
    from django.contrib.auth import get_user_model

    client = Client()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def post(client, path, body):
    return client.post(path, json.dumps(body), content_type="application/json")


def test_a_played_hand_needs_its_trump_and_points_and_the_description_says_so(schema, demo):
    """A hand with only its number fitted the description and was refused for its trump."""
    assert not valid(schema, "HandInput", {"number": 1})
    assert not valid(schema, "HandInput", {"number": 1, "trump": "S"})
    assert valid(schema, "HandInput", {"number": 1, "trump": "S", "defender_points": 40})
    assert valid(schema, "HandInput", {"number": 1, "outcome": "redeal"})  # a redeal has neither
    assert not valid(schema, "HandInput", {"number": 1, "outcome": "played"})

    from tournament.models import Match

    table = Match.objects.filter(referees__username="referee1", status=Match.Status.PLAYING).order_by("pk").first()
    answer = post(client_of("referee1"), f"/api/matches/{table.pk}/hands/", {"number": 1})
    assert answer.status_code == 400 and answer.json()["field"] in ("trump", "defender_points"), answer.content


@pytest.mark.parametrize("component, field", [
    ("EventWrite", "name"), ("Entry", "unit"), ("EntryPlayer", "name"), ("Reopen", "reason"),
    ("ResultDecisionIn", "reason"), ("ChoiceIn", "option"), ("Offence", "code"),
])
def test_a_name_may_not_be_blank_and_the_description_says_so(schema, component, field):
    """Blank names fitted the description and were refused."""
    rule = schema["components"]["schemas"][component]["properties"][field]
    assert rule.get("minLength") == 1, rule
    assert rule.get("pattern") == NOT_BLANK, rule
    for blank in ("", "   ", "\u3000", "\t\n"):
        assert not jsonschema.Draft7Validator(rule).is_valid(blank), (component, field, blank)
    assert jsonschema.Draft7Validator(rule).is_valid(" 张三 ")
    assert not jsonschema.Draft7Validator(rule).is_valid("张\x00三")


def test_a_blank_event_name_is_refused_by_the_description_s_rule(demo):
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    get_user_model().objects.get(username="organiser").user_permissions.add(
        Permission.objects.get(content_type__app_label="tournament", codename="add_event"))
    client = client_of("organiser")
    body = {"name": "   ", "start_date": "2026-12-06", "end_date": "2026-12-06", "profile": "shenzhen-community"}
    answer = post(client, "/api/events/", body)
    assert answer.status_code == 400 and answer.json()["field"] == "name", answer.content
    answer = post(client, "/api/events/", {**body, "name": "区职工赛"})
    assert answer.status_code == 201, answer.content


def test_the_draw_kinds_are_an_enum(schema, demo):
    """The draw kinds were listed in a description only."""
    from tournament.competition.draws import DRAWERS
    from tournament.models import Stage

    kind = schema["components"]["schemas"]["DrawCreate"]["properties"]["kind"]
    enum = schema["components"]["schemas"][kind["allOf"][0]["$ref"].rsplit("/", 1)[1]]["enum"]
    assert sorted(enum) == sorted(DRAWERS)
    assert not valid(schema, "DrawCreate", {"kind": "lottery"})
    assert not valid(schema, "DrawCreate", {"kind": "seats", "n_groups": 2})  # the seats draw takes no groups
    assert valid(schema, "DrawCreate", {"kind": "groups", "n_groups": 2})
    stage = Stage.objects.filter(event=demo).order_by("order").first()
    answer = post(client_of("organiser"), f"/api/stages/{stage.pk}/draws/", {"kind": "lottery"})
    assert answer.status_code == 400 and answer.json()["field"] == "kind", answer.content


def test_a_staff_role_is_an_enum(schema, demo):
    """The role was free text in the description."""
    from tournament.models import EventRole

    role = schema["components"]["schemas"]["StaffInput"]["properties"]["role"]
    enum = schema["components"]["schemas"][role["$ref"].rsplit("/", 1)[1]]["enum"]
    assert sorted(enum) == sorted(EventRole.Role.values)
    assert not valid(schema, "StaffInput", {"role": "boss"})
    answer = post(client_of("organiser"), "/api/events/demo/staff/", {"display_name": "周裁判", "role": "boss"})
    assert answer.status_code == 400 and answer.json()["field"] == "role", answer.content


@pytest.mark.parametrize("body, field", [
    ({"kind": "round_robin", "name": 0}, "name"),            # a stage named 0: the number, not the text "0"
    ({"from_format": 0}, "from_format"),                     # 0 is not false
    ({"kind": "round_robin", "source": "1"}, "source"),      # the text "1" is not the number
    ({"kind": "round_robin", "settings": {"n_groups": "2"}}, "settings.n_groups"),
    ({"kind": "round_robin", "settings": {"groups": 2}}, "settings.groups"),  # no stage has it
])
def test_a_value_of_another_type_than_described_is_refused(schema, demo, body, field):
    """A stage named 0 (the number) did not fit the description and was created."""
    from tournament.models import Stage

    assert not valid(schema, "StageCreate", body)
    before = Stage.objects.filter(event=demo).count()
    answer = post(client_of("organiser"), "/api/events/demo/stages/", body)
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.content
    assert Stage.objects.filter(event=demo).count() == before


def test_a_stage_named_with_digits_as_text_is_created(schema, demo):
    assert valid(schema, "StageCreate", {"kind": "round_robin", "name": "0"})
    answer = post(client_of("organiser"), "/api/events/demo/stages/", {"kind": "round_robin", "name": "0"})
    assert answer.status_code == 201 and answer.json()[0]["name"] == "0", answer.content


@pytest.mark.parametrize("body, field", [
    ({"number": "1", "trump": "S", "defender_points": 40}, "number"),
    ({"number": 1, "trump": "S", "defender_points": 40, "reclaim": "yes"}, "reclaim"),
    ({"number": 1, "trump": "S", "defender_points": 40.5}, "defender_points"),
    ({"number": 1, "trump": 5, "defender_points": 40}, "trump"),
])
def test_a_hand_value_of_another_type_is_refused(demo, body, field):
    from tournament.models import Match

    table = Match.objects.filter(referees__username="referee1", status=Match.Status.PLAYING).order_by("pk").first()
    answer = post(client_of("referee1"), f"/api/matches/{table.pk}/hands/", body)
    assert answer.status_code == 400 and answer.json()["field"] == field, answer.content


def test_a_text_is_measured_as_sent(demo):
    """maxLength counts the characters sent; DRF measured the text after trimming its spaces."""
    from tournament.models import Round

    rnd = Round.objects.filter(stage__event=demo, results_published_at__isnull=False).first() \
        or Round.objects.filter(stage__event=demo).first()
    answer = post(client_of("chief"), f"/api/rounds/{rnd.pk}/reopen/", {"reason": "理由" + " " * 300})
    assert answer.status_code == 400 and answer.json()["field"] == "reason", answer.content

"""The OpenAPI description tells what the server sends (issue 17 item 7): lists documented as lists,
every error as the one ``{"field", "detail"}`` body, public reads without credentials, every write's body."""
import json

import jsonschema
import pytest
from django.urls import path as url_path
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import extend_schema
from rest_framework.authentication import BasicAuthentication
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle
from rest_framework.views import APIView

from infra.api_errors import api_exception_handler

LISTS = {  # operationId: what the server answers is a JSON array (no pagination anywhere)
    "events_list", "events_entries_list", "events_stages_list", "stages_matches_list", "stages_draws_list",
    "matches_hands_list", "events_staff_list", "events_rounds_list", "events_matches_list", "events_tokens_list",
    "tokens_list", "events_offences_list", "events_hand_entries_open_list",
}
PUBLIC = {  # readable without credentials (what anonymous visitors may see: published events)
    "events_list", "events_retrieve", "events_entries_list", "events_stages_list", "events_ranking_retrieve",
    "event_penalty_log", "match_penalty_log", "matches_hands_list", "match_lead_read", "matches_state_retrieve",
    "rounds_clock_retrieve", "stages_retrieve", "stages_draws_list", "stages_matches_list",
    "stages_standings_retrieve", "events_rounds_list", "events_matches_list", "matches_retrieve",
    "events_offences_list", "events_units_retrieve", "stages_swiss_standings_retrieve", "event_appeals",
    "entries_retrieve", "rounds_retrieve", "events_feed_retrieve", "matches_hand_entries_retrieve",
}
LOGIN = "login_token_create"   # a write with no security: its credentials are its body (#46 item 8)
NO_BODY = {"rounds_close_create", "events_staff_delete", "events_tokens_delete", "tokens_delete"}


@pytest.fixture(scope="module")
def schema():
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method.upper(), operation


def test_lists_are_documented_as_lists_and_objects_as_objects(schema):
    seen = set()
    for _path, method, operation in operations(schema):
        if method != "GET":
            continue
        seen.add(operation["operationId"])
        if operation["operationId"] == "events_feed_retrieve":   # server-sent events, not JSON
            assert list(operation["responses"]["200"]["content"]) == ["text/event-stream"]
            continue
        body = operation["responses"]["200"]["content"]["application/json"]["schema"]
        is_list = body.get("type") == "array"
        assert is_list == (operation["operationId"] in LISTS), operation["operationId"]
    assert LISTS | PUBLIC <= seen, (LISTS | PUBLIC) - seen


def test_every_error_answer_is_documented_as_the_one_error_body(schema):
    error = schema["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"code", "field", "detail"}
    for path, method, operation in operations(schema):
        codes = {int(code) for code in operation["responses"]}
        assert 403 in codes, (method, path)  # wrong credentials are refused on every operation
        if "{" in path:
            assert 404 in codes, (method, path)
        if method != "GET":
            assert {400, 409} <= codes, (method, path)
        for code, response in operation["responses"].items():
            if int(code) >= 400:
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/Error", (method, path, code)


def test_public_reads_need_no_credentials_and_writes_do(schema):
    for path, method, operation in operations(schema):
        # a public read states no requirement (a generated client reads it without credentials, #46 item 7)
        # and names the credentials it also takes; every other operation requires one of them
        public = "security" not in operation
        assert public == (operation["operationId"] in PUBLIC | {LOGIN}), (method, path, operation.get("security"))
        if public and operation["operationId"] not in {"rounds_clock_retrieve", LOGIN}:   # these read none
            assert set(operation["x-optional-security"]) == {"cookieAuth", "apiToken", "basicAuth"}
        if not public:
            assert {} not in operation["security"]


def test_every_write_documents_its_json_body(schema):
    for path, method, operation in operations(schema):
        if method == "GET" or operation["operationId"] in NO_BODY:
            continue
        assert list(operation["requestBody"]["content"]) == ["application/json"], (method, path)
        assert operation["requestBody"]["content"]["application/json"]["schema"]["$ref"], (method, path)


def _json_schema(node):
    """OpenAPI 3.0's ``nullable`` as JSON Schema's null type, for jsonschema."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False) and "type" in node:
        node["type"] = [node["type"], "null"]
    return node


def _error_validator(schema):
    return jsonschema.Draft202012Validator(_json_schema({**schema["components"]["schemas"]["Error"],
                                                         "components": schema["components"]}))


def test_the_answers_sent_match_the_error_body(schema, client, make_user, settings):
    """A real 400, 401, 403, 404 and 409 of the API, each validated against the documented Error body: no
    credentials are a 401, a known user without the right a 403 (issue 29 item 4)."""
    from tests.tournament.test_clock_fixtures import make_round
    from tournament import roles

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    validator = _error_validator(schema)
    chief = make_user(roles.CHIEF_REFEREE)
    rnd = make_round()
    url = f"/api/rounds/{rnd.pk}/clock/actions/"
    answers = {
        401: client.post(url, {"action": "start"}, content_type="application/json"),  # anonymous
        404: client.get("/api/rounds/999999/clock/"),
    }
    client.force_login(make_user())
    answers[403] = client.post(url, {"action": "start"}, content_type="application/json")
    client.force_login(chief)
    answers[400] = client.post(url, {"action": "jump"}, content_type="application/json")
    answers[409] = client.post(f"/api/rounds/{rnd.pk}/close/")  # its tables have no result yet
    for code, response in answers.items():
        assert response.status_code == code, (code, response.content)
        body = response.json()
        validator.validate(body)
        assert body["detail"], body
    assert answers[400].json()["field"] == "action"
    assert answers[401]["WWW-Authenticate"]
    assert {code: answer.json()["code"] for code, answer in answers.items() if code in (401, 403)} == {
        401: "not_authenticated", 403: "forbidden"}


def test_a_bare_validation_message_keeps_the_documented_shape(schema):
    validator = _error_validator(schema)
    response = api_exception_handler(ValidationError("nope"), {})
    body = json.loads(json.dumps(response.data))
    validator.validate(body)
    assert body == {"code": "invalid", "field": None, "detail": "nope", "errors": {"non_field_errors": ["nope"]}}


class _Throttled(APIView):
    """A throttled view whose first authentication class asks for credentials (WWW-Authenticate)."""

    authentication_classes = [BasicAuthentication]
    throttle_classes = [AnonRateThrottle]

    @extend_schema(responses={200: None})
    def get(self, request):
        return Response()


def test_credentials_asked_for_and_throttling_are_documented_where_they_apply():
    throttled = SchemaGenerator(patterns=[url_path("api/throttled/", _Throttled.as_view())]).get_schema(
        request=None, public=True)
    # 304: every read answers If-None-Match (issue 29 item 7)
    assert {"200", "304", "401", "403", "429", "503"} == set(throttled["paths"]["/api/throttled/"]["get"]["responses"])


def test_every_write_documents_the_idempotency_key_and_its_replay(schema):
    """Issue 29 item 3: a generated client had no argument for Idempotency-Key. Every write under /api/ takes it
    (a header of at most 200 characters, optional), says a replay with Idempotent-Replay and lists the 422 of a
    key used for another request; reads take none."""
    writes = 0
    for path, method, operation in operations(schema):
        headers = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "header"}
        if method in ("GET", "HEAD", "OPTIONS"):
            assert "Idempotency-Key" not in headers, (method, path)
            continue
        writes += 1
        key = headers.get("Idempotency-Key")
        assert key and not key.get("required") and key["schema"]["maxLength"] == 200, (method, path)
        assert "422" in operation["responses"], (method, path)
        replayed = [code for code, answer in operation["responses"].items()
                    if "Idempotent-Replay" in (answer.get("headers") or {})]
        assert any(code.startswith("2") for code in replayed), (method, path)
    assert writes > 20

"""#46 item 9: the schema and the answers agree. 410 ``secret_shown_once`` and 503 ``unavailable`` are in the
operations that can answer them; the feed and the clock (never stored: no-store) document no ETag or 304 and
send none; the feed documents no ``format`` (it answers server-sent events whatever is asked); the CSRF
refusal's ``detail`` is in the interface's language."""
import json

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from tests.tournament.test_clock_fixtures import make_round
from tournament.staff.passwords import password_set_by_owner
from tournament.staff.services import create_organiser_account

SECRET_WRITES = {"events_staff_create", "events_tokens_create", "tokens_create", "matches_side_codes_create",
                 "rounds_side_codes_create"}
NO_STORE = {"events_feed_retrieve"}   # the clock read is a cacheable public read (issue 44): ETag and 304


@pytest.fixture(scope="module")
def operations():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    return {op["operationId"]: op for item in schema["paths"].values() for op in item.values()}


def test_every_operation_documents_503_and_the_secret_writes_410(operations):
    for operation_id, operation in operations.items():
        assert "503" in operation["responses"], operation_id
        assert ("410" in operation["responses"]) == (operation_id in SECRET_WRITES), operation_id
    assert "secret_shown_once" in operations["tokens_create"]["responses"]["410"]["description"]


def test_no_store_reads_document_no_etag_and_send_none(db, operations):
    for operation_id in NO_STORE:
        operation = operations[operation_id]
        assert "304" not in operation["responses"]
        assert "ETag" not in operation["responses"]["200"].get("headers", {})
        assert "If-None-Match" not in {p["name"] for p in operation.get("parameters", [])}
    assert "format" not in {p["name"] for p in operations["events_feed_retrieve"]["parameters"]}
    # every other read still documents them
    assert "304" in operations["events_matches_list"]["responses"]
    assert "304" in operations["rounds_clock_retrieve"]["responses"]
    rnd = make_round()
    client = APIClient()
    answer = client.get(f"/api/events/{rnd.stage.event.slug}/feed/")
    assert answer.status_code == 200 and answer["Cache-Control"] == "no-store" and not answer.has_header("ETag")
    clock = client.get(f"/api/rounds/{rnd.pk}/clock/")
    assert clock.status_code == 200 and clock["Cache-Control"] == "public, max-age=1" and clock.has_header("ETag")
    # ?format=json is not offered: the feed answers server-sent events whatever is asked
    answer = client.get(f"/api/events/{rnd.stage.event.slug}/feed/", {"format": "json"})
    assert answer["Content-Type"].startswith("text/event-stream")


def test_the_csrf_refusal_is_in_the_users_language(db, settings):
    user, _password = create_organiser_account("王主任")
    password_set_by_owner(user)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    refused = client.post("/api/tokens/", json.dumps({"name": "x"}), content_type="application/json")
    assert refused.status_code == 403
    body = refused.json()
    assert body["code"] == "forbidden" and "CSRF Failed" not in body["detail"]
    assert "安全" in body["detail"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.post("/api/tokens/", json.dumps({"name": "x"}), content_type="application/json")
    assert english.json()["detail"].startswith("This request failed the site's security check")

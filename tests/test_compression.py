"""Compressed answers where compression leaks nothing (issue 44 item 5): an anonymous visitor's JSON and pages
without a per-visitor token are gzipped; a page carrying the CSRF token, a signed-in visitor's page and an answer
showing a secret once never are (BREACH)."""
import gzip
import json

import pytest
from rest_framework.test import APIClient

from tests.tournament.test_clock_fixtures import make_round
from tournament import roles

pytestmark = pytest.mark.django_db
GZIP = {"HTTP_ACCEPT_ENCODING": "gzip"}


def test_the_live_tables_and_the_clock_are_compressed_for_a_visitor(client):
    rnd = make_round(tables=30)
    live = client.get(f"/events/{rnd.stage.event.slug}/live.json?rounds={rnd.pk}", **GZIP)
    assert live["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(live.content))["published"] is True
    clock = APIClient().get(f"/api/rounds/{rnd.pk}/clock/", **GZIP)
    assert clock["Content-Encoding"] == "gzip"


def test_a_page_with_the_csrf_token_is_never_compressed(client):
    page = client.get("/accounts/login/", **GZIP)
    assert page.status_code == 200 and "csrfmiddlewaretoken" in page.content.decode()
    assert not page.has_header("Content-Encoding")


def test_a_signed_in_visitors_page_is_never_compressed(client, make_user):
    rnd = make_round(tables=30)
    client.force_login(make_user(roles.ORGANISER))
    page = client.get(f"/events/{rnd.stage.event.slug}/schedule/", **GZIP)
    assert page.status_code == 200 and not page.has_header("Content-Encoding")


def test_an_answer_showing_a_secret_once_is_never_compressed(make_user):
    api = APIClient()
    api.force_authenticate(make_user(roles.ORGANISER))
    made = api.post("/api/tokens/", {"name": "成绩脚本" * 20}, format="json", **GZIP)
    assert made.status_code == 201 and made["Cache-Control"] == "no-store"
    assert not made.has_header("Content-Encoding") and made.json()["key"]

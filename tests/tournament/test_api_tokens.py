"""Credentials for programs (issue 29 item 2): an event's organiser makes and revokes the event's API tokens
through the API (the staff page's service, tournament.staff.tokens); an account that may create events makes
a site-wide organiser token of its own, which creates events and then acts as their organiser, never with a
site-wide role or a superuser's powers; the schema's security says how, and that session writes need CSRF."""
import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from infra.models import IdempotencyRecord
from tournament.models import ApiToken, EventRole
from tournament.staff import tokens
from tournament.staff.passwords import password_set_by_owner
from tournament.staff.services import add_staff, create_organiser_account

NEW = {"name": "2026 区职工拖拉机赛", "start_date": "2026-12-05", "end_date": "2026-12-06", "venue": "区文化宫",
       "profile": "union-games", "format": "round_robin", "organising_body": "区总工会"}


def send(client, method, path, body=None, key=None, **headers):
    if key:
        headers["HTTP_AUTHORIZATION"] = f"Bearer {key}"
    return getattr(client, method)(path, data=json.dumps(body) if body is not None else None,
                                   content_type="application/json", **headers)


@pytest.fixture
def organiser(db):
    user, _password = create_organiser_account("王主任")
    password_set_by_owner(user)
    return user


@pytest.fixture
def site_key(organiser):
    client = Client()
    client.force_login(organiser)
    answer = send(client, "post", "/api/tokens/", {"name": "报名导入程序"})
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["event"] is None and body["user_id"] == organiser.pk and body["key"].startswith("trk_")
    return body["key"]


def test_a_site_wide_token_creates_an_event_and_manages_it_through_the_api(client, organiser, site_key):
    created = send(client, "post", "/api/events/", NEW, key=site_key)
    assert created.status_code == 201, created.content
    slug = created.json()["slug"]
    assert EventRole.objects.filter(event__slug=slug, user=organiser, role="organiser").exists()
    # the organiser's program makes a referee's token for the new event, without a session or CSRF token
    referee = add_staff(created_event := organiser.event_roles.get(event__slug=slug).event, "table_referee",
                        display="李裁判")[0].user
    made = send(client, "post", f"/api/events/{slug}/tokens/", {"name": "3号桌平板", "user": referee.pk}, key=site_key)
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["event"], body["user_id"], body["name"]) == (slug, referee.pk, "3号桌平板")
    stored = ApiToken.objects.get(pk=body["id"])
    assert stored.event == created_event and body["key"] not in stored.digest  # only the hash is kept
    listed = send(client, "get", f"/api/events/{slug}/tokens/", key=site_key).json()
    assert [t["id"] for t in listed] == [body["id"]] and "key" not in listed[0]
    # the referee's token reads its event; revoked, it is a 401 with WWW-Authenticate
    assert send(client, "get", f"/api/events/{slug}/", key=body["key"]).status_code == 200
    revoked = send(client, "delete", f"/api/events/{slug}/tokens/{body['id']}/", key=site_key)
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    refused = send(client, "get", f"/api/events/{slug}/", key=body["key"])
    assert refused.status_code == 401 and refused["WWW-Authenticate"]
    assert refused.json()["code"] == "authentication_failed"


def test_an_events_token_cannot_make_site_wide_tokens_or_events(client, organiser, site_key):
    slug = send(client, "post", "/api/events/", NEW, key=site_key).json()["slug"]
    event = organiser.event_roles.get(event__slug=slug).event
    _token, event_key = tokens.create_token(event, organiser.pk, "成绩脚本", by=organiser)
    assert send(client, "post", "/api/tokens/", {"name": "x"}, key=event_key).status_code == 403
    assert send(client, "post", "/api/events/", NEW, key=event_key).status_code == 403
    assert ApiToken.objects.filter(event__isnull=True).count() == 1


def test_a_referee_may_not_make_the_events_tokens(client, organiser, site_key):
    slug = send(client, "post", "/api/events/", NEW, key=site_key).json()["slug"]
    event = organiser.event_roles.get(event__slug=slug).event
    referee = add_staff(event, "chief_referee", display="赵裁判长")[0].user
    _token, key = tokens.create_token(event, referee.pk, "裁判长平板", by=organiser)
    answer = send(client, "post", f"/api/events/{slug}/tokens/", {"name": "x", "user": referee.pk}, key=key)
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert send(client, "get", f"/api/events/{slug}/tokens/").status_code == 401  # no credentials
    # somebody not on the staff is refused with the reason, naming the field
    stranger = get_user_model().objects.create_user("stranger")
    answer = send(client, "post", f"/api/events/{slug}/tokens/", {"name": "x", "user": stranger.pk}, key=site_key)
    assert answer.status_code == 400 and answer.json()["field"] == "user"


def test_only_an_account_that_may_create_events_has_site_wide_tokens(client, db):
    plain = get_user_model().objects.create_user("plain")
    client.force_login(plain)
    assert send(client, "post", "/api/tokens/", {"name": "x"}).status_code == 403
    assert not ApiToken.objects.exists()


def test_a_superusers_site_wide_token_holds_no_superuser_powers(client, db):
    root = get_user_model().objects.create_superuser("root")
    _token, key = tokens.create_token(None, root.pk, "root script", by=root)
    created = send(client, "post", "/api/events/", NEW, key=key)
    assert created.status_code == 201  # may create events, and is the new event's organiser
    slug = created.json()["slug"]
    assert send(client, "patch", f"/api/events/{slug}/", {"venue": "体育馆"}, key=key).status_code == 200
    other = send(Client(), "post", "/api/events/", {**NEW, "name": "另一个比赛"}, key=key).json()["slug"]
    EventRole.objects.filter(event__slug=other).delete()  # nobody's: not the token's either
    assert send(client, "patch", f"/api/events/{other}/", {"venue": "x"}, key=key).status_code in (403, 404)


def test_a_site_wide_token_is_revoked_by_its_owner(client, organiser, site_key):
    token = ApiToken.objects.get(event__isnull=True)
    listed = send(client, "get", "/api/tokens/", key=site_key).json()
    assert [t["id"] for t in listed] == [token.pk]
    assert send(client, "delete", f"/api/tokens/{token.pk}/", key=site_key).status_code == 200
    assert send(client, "get", "/api/tokens/", key=site_key).status_code == 401
    token.refresh_from_db()
    assert token.revoked_at is not None and token.revoked_by == organiser


def test_the_schema_describes_the_tokens_and_the_csrf_of_session_writes(db):
    schemes = SchemaGenerator().get_schema(request=None, public=True)["components"]["securitySchemes"]
    assert "site-wide organiser token" in schemes["apiToken"]["description"]
    assert "/api/events/{slug}/tokens/" in schemes["apiToken"]["description"]
    assert "X-CSRFToken" in schemes["cookieAuth"]["description"]


def test_a_new_tokens_key_is_never_kept_by_the_idempotency_store(client, organiser):
    """The key is shown once: a retry with the same Idempotency-Key is told so (410), the store holds no key."""
    client.force_login(organiser)
    first = send(client, "post", "/api/tokens/", {"name": "导入"}, HTTP_IDEMPOTENCY_KEY="k-token-1")
    assert first.status_code == 201 and first["Cache-Control"] == "no-store"
    key = first.json()["key"]
    again = send(client, "post", "/api/tokens/", {"name": "导入"}, HTTP_IDEMPOTENCY_KEY="k-token-1")
    assert again.status_code == 410 and again.json()["code"] == "secret_shown_once"
    assert key.encode() not in b"".join(bytes(r.body) for r in IdempotencyRecord.objects.all())
    assert ApiToken.objects.filter(name="导入").count() == 1


def test_an_events_token_cannot_revoke_its_persons_site_wide_tokens(client, organiser, site_key):
    """Issue 46 item 1: GET and POST on /api/tokens/ refuse an event's token; DELETE did not."""
    slug = send(client, "post", "/api/events/", NEW, key=site_key).json()["slug"]
    event = organiser.event_roles.get(event__slug=slug).event
    _token, event_key = tokens.create_token(event, organiser.pk, "成绩脚本", by=organiser)
    site_token = ApiToken.objects.get(event__isnull=True)
    answer = send(client, "delete", f"/api/tokens/{site_token.pk}/", key=event_key)
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    site_token.refresh_from_db()
    assert site_token.revoked_at is None
    assert send(client, "get", "/api/tokens/", key=site_key).status_code == 200  # still works

"""config.sessionuser: a table write reads the session's user with its first read (PostgreSQL), and answers
only for a user verified as Django verifies one: a user deactivated, deleted or whose password changed since
the login is refused as before, and nothing of the attempt is kept (issue #15: a write in three round trips).
On SQLite the user is read as Django reads it: the same answers."""
import json

import pytest
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.db import OperationalError, connection
from django.http import JsonResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from config.idempotency import IdempotencyKeyMiddleware
from config.models import IdempotencyRecord
from config.sessionuser import SessionUserLead
from rulings.models import Ruling
from scoring.models import Hand
from tests.scoring.test_hands_support import hand_body, match, post_hand, referee  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)
postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="the joined read is PostgreSQL's")


def post_ruling(client, match, key):
    return client.post(f"/api/matches/{match.pk}/rulings/", data=json.dumps({"code": "delay", "side": "NS"}),
                       content_type="application/json", HTTP_IDEMPOTENCY_KEY=key)


def deactivate(client, user):
    user.is_active = False
    user.save(update_fields=["is_active"])


def change_password(client, user):
    user.set_password("a new one, typed elsewhere")
    user.save(update_fields=["password"])


def gone(client, user):
    """The session names a user that no longer exists (one who recorded hands is never deleted: protected)."""
    session = client.session
    session[SESSION_KEY] = str(get_user_model().objects.order_by("-pk").values_list("pk", flat=True)[0] + 1)
    session.save()


@pytest.mark.parametrize("change", [deactivate, change_password, gone], ids=["deactivated", "password-changed", "gone"])
@pytest.mark.parametrize("write", ["hand", "ruling"])
def test_a_user_no_longer_the_sessions_is_refused_and_nothing_is_kept(client, match, referee, change, write):
    client.force_login(referee)
    assert post_hand(client, match, hand_body(1, 45, declarer="N"), HTTP_IDEMPOTENCY_KEY="first").status_code == 201
    change(client, referee)
    if write == "hand":
        response = post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="after")
    else:
        response = post_ruling(client, match, "after")
    assert response.status_code in (401, 403), response.content
    assert "Idempotent-Replay" not in response
    assert list(Hand.objects.filter(match=match).values_list("number", flat=True)) == [1]
    assert not Ruling.objects.filter(match=match).exists()
    # the refusal is the anonymous request's (its key is nobody's), never stored under the user's id
    assert not IdempotencyRecord.objects.filter(key="after").exclude(owner="").exists()


def test_a_refused_session_is_logged_out_as_django_does(client, match, referee):
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    change_password(client, referee)
    assert post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="k").status_code in (401, 403)
    assert SESSION_KEY not in client.session   # flushed by auth.get_user on the second run


def test_a_stored_answer_is_not_replayed_to_a_session_that_no_longer_verifies(client, match, referee):
    client.force_login(referee)
    first = post_hand(client, match, hand_body(1, 45, declarer="N"), HTTP_IDEMPOTENCY_KEY="same")
    assert first.status_code == 201
    change_password(client, referee)
    again = post_hand(client, match, hand_body(1, 45, declarer="N"), HTTP_IDEMPOTENCY_KEY="same")
    assert again.status_code in (401, 403) and "Idempotent-Replay" not in again


def test_the_user_as_verified_is_the_one_the_write_names(client, match, referee):
    client.force_login(referee)
    response = post_hand(client, match, hand_body(1, 45, declarer="N"), HTTP_IDEMPOTENCY_KEY="named")
    assert response.json()["hand"]["recorded_by"] == referee.username
    assert Hand.objects.get(match=match).recorded_by_id == referee.pk
    assert IdempotencyRecord.objects.get(key="named").owner == str(referee.pk)


@postgres_only
def test_the_user_is_read_with_the_match_not_before_it(client, match, referee):
    client.force_login(referee)
    post_hand(client, match, hand_body(1, 45, declarer="N"))
    with CaptureQueriesContext(connection) as ctx:
        assert post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="k2").status_code == 201
    sql = [q["sql"] for q in ctx.captured_queries]
    user_reads = [n for n, text in enumerate(sql) if get_user_model()._meta.db_table in text.split(" FROM ")[-1][:40]
                  and text.startswith("SELECT")]
    begin = sql.index("BEGIN")
    assert user_reads == [begin + 1], sql   # one user read, the first statement of the write's transaction


def _request(user, session_hash):
    request = RequestFactory().post("/api/matches/1/hands/")
    request.session = {SESSION_KEY: str(user.pk), "_auth_user_backend": "config.auth.LockoutModelBackend",
                       HASH_SESSION_KEY: session_hash}
    return request


def test_the_stand_in_reads_a_field_asked_for_early_from_the_database(referee):
    lead = SessionUserLead.of(_request(referee, referee.get_session_auth_hash()))
    assert lead.user.pk == referee.pk and lead.user.is_active is True
    assert lead.user.username == referee.username   # read as a deferred field is, before the row arrives
    lead.verify_now()
    assert lead.verified and lead.user.email == referee.email


def test_a_check_against_another_hash_refuses(referee):
    from config.api_errors import SessionUserChanged

    lead = SessionUserLead.of(_request(referee, "not-the-hash"))
    with pytest.raises(SessionUserChanged):
        lead.verify_now()
    assert lead.failed and not lead.verified


def test_no_stand_in_without_a_logged_in_session_or_once_the_user_is_read(referee):
    request = RequestFactory().post("/")
    request.session = {}
    assert SessionUserLead.of(request) is None
    request = _request(referee, referee.get_session_auth_hash())
    request._cached_user = referee
    assert SessionUserLead.of(request) is None


@pytest.mark.parametrize("change", [deactivate, change_password, gone], ids=["deactivated", "password-changed", "gone"])
@pytest.mark.parametrize("write", ["hand", "ruling"])
def test_a_bad_body_from_a_user_no_longer_the_sessions_is_refused_without_an_error(client, match, referee, change,
                                                                                   write):
    """A body that does not validate makes the view read the match before the service would: the user is
    verified first there too (the test client raises any exception the request logged). The event is not
    published: whether the user may see the match asks for their roles (``is_superuser`` first)."""
    event = match.round.stage.event
    event.published = False
    event.save(update_fields=["published"])
    client.force_login(referee)
    change(client, referee)
    path = "hands" if write == "hand" else "rulings"
    response = client.post(f"/api/matches/{match.pk}/{path}/", data=json.dumps({"number": "x", "code": 7}),
                           content_type="application/json", HTTP_IDEMPOTENCY_KEY="bad-body")
    assert response.status_code in (401, 403, 404), response.content


class _Unreachable:
    verified = False

    def verify_now(self):
        raise OperationalError("the database went away")


def test_an_answer_asking_for_a_retry_is_given_when_the_user_cannot_be_read():
    middleware = IdempotencyKeyMiddleware(lambda request: None)
    assert middleware.verified(_Unreachable(), JsonResponse({}, status=503)) is False   # the 503 as it is
    with pytest.raises(OperationalError):
        middleware.verified(_Unreachable(), JsonResponse({}, status=201))

"""config.sessionuser: a table write reads the session's user with its first read (PostgreSQL), and answers
only for a user verified as Django verifies one: a user deactivated, deleted or whose password changed since
the login is refused as before, and nothing of the attempt is kept (issue #15: a write in three round trips).
On SQLite the user is read as Django reads it: the same answers."""
import datetime as dt
import json
from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import OperationalError, connection
from django.http import JsonResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config import sessionuser
from config.api_errors import SessionUserChanged
from config.idempotency import IdempotencyKeyMiddleware
from config.models import IdempotencyRecord
from config.sessionuser import SessionUserLead
from rulings.models import Ruling
from scoring.models import Hand
from tests.scoring.test_hands_support import hand_body, match, post_hand, referee  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db(transaction=True)
postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="the joined read is PostgreSQL's")


@pytest.fixture(autouse=True)
def no_session_known(monkeypatch):
    """Each test starts with a process that knows no session (``sessionuser._known`` is the process's)."""
    monkeypatch.setattr(sessionuser, "_known", {})


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


# -- the session taken as known (its row read in the write's first round trip) -------------------------------
def _known_after_one_write(client, match, referee):
    client.force_login(referee)
    assert post_hand(client, match, hand_body(1, 45, declarer="N"), HTTP_IDEMPOTENCY_KEY="one").status_code == 201
    key = client.session.session_key
    if connection.vendor == "postgresql":
        assert key in sessionuser._known   # remembered by the write that read it
    return key


@postgres_only
def test_a_known_session_is_read_with_the_write_not_before_it(client, match, referee):
    _known_after_one_write(client, match, referee)
    with CaptureQueriesContext(connection) as ctx:
        assert post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="two").status_code == 201
    sql = [q["sql"] for q in ctx.captured_queries]
    begin = sql.index("BEGIN")
    session_reads = [n for n, text in enumerate(sql) if "django_session" in text]
    assert session_reads == [begin + 1], sql   # the only read of the session: the user's, the write's first
    assert get_user_model()._meta.db_table in sql[begin + 1].split(" FROM ")[-1][:40]
    assert sessionuser._known[client.session.session_key][1] is not None   # its text kept: compared alone next


def _store(client):
    """The client's session in the store the settings name (``cached_db`` with Redis: its row and its copy)."""
    return import_module(settings.SESSION_ENGINE).SessionStore(client.session.session_key)


def _log_out_elsewhere(client):
    _store(client).delete()   # as a logout on another phone deletes it (its row, and its cached copy)


def _expire(client):
    Session.objects.filter(session_key=client.session.session_key).update(
        expire_date=timezone.now() - dt.timedelta(seconds=1))
    store = _store(client)
    if hasattr(store, "cache_key"):   # cached_db: the copy's time runs out with the session's
        caches[settings.SESSION_CACHE_ALIAS].delete(store.cache_key)


@pytest.mark.parametrize("end", [_log_out_elsewhere, _expire], ids=["logged-out", "expired"])
@pytest.mark.parametrize("write", ["hand", "ruling"])
def test_a_known_session_ended_since_is_refused_and_nothing_is_kept(client, match, referee, end, write):
    key = _known_after_one_write(client, match, referee)
    end(client)
    if write == "hand":
        response = post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="after")
    else:
        response = post_ruling(client, match, "after")
    assert response.status_code in (401, 403), response.content
    assert list(Hand.objects.filter(match=match).values_list("number", flat=True)) == [1]
    assert not Ruling.objects.filter(match=match).exists()
    assert not IdempotencyRecord.objects.filter(key="after").exclude(owner="").exists()
    assert key not in sessionuser._known   # forgotten by the process


def test_a_known_session_changed_since_is_read_again_and_the_write_kept_once(client, match, referee):
    key = _known_after_one_write(client, match, referee)
    session = client.session
    session["something_else"] = "set by another page"
    session.save()
    response = post_hand(client, match, hand_body(2, 45), HTTP_IDEMPOTENCY_KEY="changed")
    assert response.status_code == 201, response.content
    assert list(Hand.objects.filter(match=match).values_list("number", flat=True)) == [1, 2]
    assert IdempotencyRecord.objects.get(key="changed").owner == str(referee.pk)
    # run again with the session read as Django reads it; the next write learns it anew
    assert key not in sessionuser._known
    assert post_hand(client, match, hand_body(3, 45), HTTP_IDEMPOTENCY_KEY="three").status_code == 201
    if connection.vendor == "postgresql":
        assert sessionuser._known[key][0]["something_else"] == "set by another page"


def _session_request(session_key):
    request = RequestFactory().post("/api/matches/1/hands/")
    request.session = SessionStore(session_key)
    return request


def test_a_session_taken_as_known_but_not_standing_in_is_read_as_django_reads_it(client, referee):
    client.force_login(referee)
    key = client.session.session_key
    sessionuser._known[key] = [{**client.session.load(), "_auth_user_backend": "not.a.backend"}, None]
    request = _session_request(key)
    assert SessionUserLead.of(request) is None
    assert request.session[SESSION_KEY] == str(referee.pk)   # read from the database, not taken as known
    assert request.session["_auth_user_backend"] != "not.a.backend"


def test_a_known_session_is_checked_before_the_user(referee, client):
    client.force_login(referee)
    key = client.session.session_key
    sessionuser._known[key] = [dict(client.session.load()), None]
    lead = SessionUserLead.of(_session_request(key))
    assert lead.assumed is not None and not lead.verified
    Session.objects.filter(session_key=key).delete()
    with pytest.raises(SessionUserChanged):
        lead.verify_now()
    assert lead.failed and not lead.verified   # the user not verified on a session gone


def test_a_process_remembers_at_most_so_many_sessions(monkeypatch):
    monkeypatch.setattr(sessionuser, "KNOWN_MOST", 3)
    monkeypatch.setattr(sessionuser, "_known", {})
    stores = []
    for _ in range(5):
        store = SessionStore()
        store[SESSION_KEY] = "1"
        store.create()
        stores.append(store)
        sessionuser._remember(store)
    assert list(sessionuser._known) == [store.session_key for store in stores[2:]]   # the oldest forgotten


def test_a_known_session_replaced_meanwhile_is_not_taken_for_the_data_assumed(referee, client):
    """Another thread forgot the session and remembered it anew (its stored text checked) between this attempt's
    taking it and its check: the attempt's data is not the one that text holds, so it is refused."""
    client.force_login(referee)
    key = client.session.session_key
    sessionuser._known[key] = [{**client.session.load(), "older": "data"}, None]
    lead = SessionUserLead.of(_session_request(key))
    text = Session.objects.get(session_key=key).session_data
    sessionuser._known[key] = [dict(client.session.load()), text]   # what the store holds, checked by another
    with pytest.raises(SessionUserChanged):
        lead.verify_now()


@pytest.mark.parametrize("engine", ["django.contrib.sessions.backends.cache",
                                    "django.contrib.sessions.backends.signed_cookies"])
def test_only_database_sessions_are_taken_as_known(referee, engine):
    """A session that has no row to check it against is read as Django reads it, known or not."""
    store = import_module(engine).SessionStore()
    store[SESSION_KEY], store["_auth_user_backend"] = str(referee.pk), "config.auth.LockoutModelBackend"
    store[HASH_SESSION_KEY] = referee.get_session_auth_hash()
    store.save()
    sessionuser._known[store.session_key] = [{SESSION_KEY: "0"}, None]
    request = RequestFactory().post("/api/matches/1/hands/")
    request.session = import_module(engine).SessionStore(store.session_key)
    lead = SessionUserLead.of(request)
    assert lead is not None and lead.assumed is None and lead.user.pk == referee.pk


def test_an_error_before_the_check_leaves_nothing_taken_as_known(referee, client):
    client.force_login(referee)
    key = client.session.session_key
    sessionuser._known[key] = [dict(client.session.load()), None]
    request = _session_request(key)
    lead = SessionUserLead.of(request)
    assert lead.assumed is not None
    lead.drop_unchecked()
    assert key not in sessionuser._known and "_session_cache" not in request.session.__dict__


def test_sessions_remembered_by_many_threads_at_once_stay_within_the_limit(monkeypatch):
    import sys
    import threading

    monkeypatch.setattr(sessionuser, "KNOWN_MOST", 50)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)   # threads switch as often as they can: a race shows at once
    errors = []

    class Store(SessionStore):   # no database: only what _remember reads
        def __init__(self, n):
            super().__init__()
            self._session_key, self._session_cache = f"k{n:032d}", {SESSION_KEY: str(n)}

    def remember(first):
        try:
            for n in range(first, first + 2000):
                sessionuser._remember(Store(n))
        except Exception as exc:   # noqa: BLE001  (any error of one thread fails the test)
            errors.append(exc)

    threads = [threading.Thread(target=remember, args=(i * 10_000,)) for i in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors and len(sessionuser._known) <= 50

"""Idempotency-key middleware for the API (after pretix's idea).

A client (a referee's phone on a flaky venue network) sends ``Idempotency-Key: <uuid>`` with a POST,
PUT, PATCH or DELETE under ``/api/``. The first request runs and its answer is stored; a retry with the
same key gets the stored answer and changes nothing. The same key with a different request is refused
(422); a retry while the first is still running gets 409. Its own refusals answer like the API's
(``{"field": null, "detail": ...}``, the message in the request's language).

The key is claimed (its record inserted) in the same transaction as the request and the storing of its
answer, so a request costs one commit and a write is never committed without its answer (a retry after
a lost connection cannot apply it twice). A retry sent while the first attempt still runs waits on the
key's unique index until the first commits, then gets its stored answer (or runs, if the first rolled
back). The claim is sent before the view runs; for a view marked ``claims_with_first_read`` (a table's hand
and ruling POSTs, whose first statements are one ``config.rowread.first_rows`` read) on PostgreSQL it
goes in that read's round trip instead (``rowread.leading``), after the reads of the session and its user
(``config.sessionuser``, verified there before anything is kept or answered): fewer round trips. Either way it is
sent before anything is written, and a view that stops before its read is claimed after it.
Answers that ask for a retry (5xx, 409, 429) are rolled back with their claim: the retry runs again.
A record still "in progress" after ``ABANDONED_AFTER`` (left by the earlier, separately committed claim)
is taken over by a retry, which runs the request once.
Records older than ``KEPT_FOR`` are deleted by :func:`purge_old_records`, which Celery beat runs
every hour (``config.purge_idempotency_records``), off the request path.
"""
import contextlib
import datetime as dt
import functools
import hashlib

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.http import HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from . import clock, rowread
from .api_errors import KeyTaken, SessionUserChanged, error_body
from .db import request_transaction
from .models import IdempotencyRecord
from .sessionuser import SessionUserLead

HEADER = "HTTP_IDEMPOTENCY_KEY"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
ABANDONED_AFTER = dt.timedelta(seconds=60)  # an in-progress record this old: its worker died
KEPT_FOR = dt.timedelta(hours=24)           # how long a stored answer is replayed
RETRY_LATER = {409, 429}                    # answers that are not stored: the same key runs again (as 5xx)
TABLE = IdempotencyRecord._meta.db_table


@functools.lru_cache(maxsize=4096)
def _reads_first(path, urlconf):
    """Is the view of ``path`` marked ``claims_with_first_read``? (Remembered: a table writes to the same
    few addresses all day.)"""
    try:
        view = resolve(path, urlconf).func
    except Resolver404:
        return False
    return getattr(getattr(view, "cls", None), "claims_with_first_read", False)


class _Claim:
    """The claim of a request's key: its record inserted in the request's transaction, unless a record of
    the same key and owner exists (then ``taken`` raises KeyTaken: the transaction rolls back and the stored
    answer is replayed). A record inserted by an attempt still running is waited for (the unique index)."""

    COLUMNS = ("key", "owner", "method", "path", "fingerprint", "content_type", "body", "created_at")
    SQL = (f"INSERT INTO {TABLE} ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))}) "
           "ON CONFLICT (owner, key) DO NOTHING RETURNING id")

    def __init__(self, **fields):
        self.fields, self.created_at, self.pk, self.lost = fields, clock.now(), None, False

    @classmethod
    def of(cls, record):
        """A record already ours (taken over)."""
        claim = cls()
        claim.pk, claim.created_at = record.pk, record.created_at
        return claim

    def statement(self):
        """The claim as one plain INSERT (the ORM's bookkeeping costs more than it)."""
        values = [self.fields[name] for name in self.COLUMNS[:5]] + [
            "", b"", connection.ops.adapt_datetimefield_value(self.created_at)]
        return self.SQL, values

    def taken(self, row):
        """The claim's answer: the new record's id, or nothing when the key is stored already."""
        if row is None:
            self.lost = True
            raise KeyTaken
        self.pk = row[0]


class IdempotencyKeyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.META.get(HEADER, "").strip()
        if not key or request.method not in UNSAFE or not request.path.startswith("/api/"):
            return self.get_response(request)
        if len(key) > 200:
            return JsonResponse(error_body(None, _("The Idempotency-Key is too long (at most 200 characters).")),
                                status=400)
        fingerprint = hashlib.sha256(
            request.method.encode() + b" " + request.path.encode() + b"\n" + request.body
        ).hexdigest()
        # a table's write reads the session and its user with its first read (config.sessionuser), verified there
        user = SessionUserLead.of(request) if self.claims_with_first_read(request) else None
        try:
            return self.claimed(request, key, fingerprint, user)
        finally:
            if user is not None:
                user.drop_unchecked()

    def claimed(self, request, key, fingerprint, user):
        """The request run with its key claimed (see the module's note)."""
        owner = self.owner(request)
        claim = _Claim(key=key, owner=owner, method=request.method, path=request.path, fingerprint=fingerprint)
        try:
            try:
                with request_transaction(), self.reading(user), rowread.leading(*claim.statement(), claim.taken):
                    response, stored = self.run(request, claim, user)
            except IntegrityError:   # a last write refused at the commit (a race no lock covered): rolled back
                response, stored = JsonResponse(error_body(None, _("Please try again.")), status=409), False
            if user is not None and not self.verified(user, response):
                return response
            if not stored and not self.asks_retry(response):
                self.store_alone(key, owner, request, fingerprint, response)
            return response
        except KeyTaken:   # the key is stored (the transaction rolled back): replay it
            pass
        except SessionUserChanged:   # rolled back: once more, the user read as Django reads it
            user.forget()
            return self(request)
        record = IdempotencyRecord.objects.filter(key=key, owner=owner).first()
        if not self.take_over(record, fingerprint):
            return self.replay(record, fingerprint)
        with transaction.atomic():   # a claim committed earlier and abandoned: now ours
            response, _stored = self.run(request, _Claim.of(record))
        if self.asks_retry(response):
            IdempotencyRecord.objects.filter(pk=record.pk, created_at=record.created_at).delete()
        return response

    @staticmethod
    def asks_retry(response):
        return response.status_code >= 500 or response.status_code in RETRY_LATER

    @staticmethod
    def claims_with_first_read(request):
        """Does the request's view send its first statements as one ``rowread.first_rows`` read (marked
        ``claims_with_first_read``), and can the claim go in that read's round trip (PostgreSQL)?"""
        return rowread.joins() and _reads_first(request.path_info, getattr(request, "urlconf", None))

    def verified(self, user, response):
        """Verify the session's user before anything is answered or stored (raises SessionUserChanged). An
        answer asking for a retry when the database is unreachable (503) is given as it is: it stores nothing
        and says nothing of the user's. Returns whether the caller may go on (store, answer)."""
        try:
            user.verify_now()
        except DatabaseError:
            if not self.asks_retry(response):
                raise
            return False
        return True

    @staticmethod
    def reading(user):
        """The session and its user read first with the write's first read (their checks before the claim's)."""
        return rowread.leading(*user.statement(), user.check) if user is not None else contextlib.nullcontext()

    def run(self, request, claim, user=None):
        """Run the request inside the caller's transaction and store its answer there; an answer that
        asks for a retry (5xx, 409, 429) rolls the transaction back, the claim with it. Returns (the answer,
        whether it is stored): an answer whose transaction an inner block without a savepoint spoiled
        (an error after which nothing of the request may stay) is rolled back and stored afterwards.
        Raises KeyTaken (the transaction then rolls back) when the key was claimed before."""
        if not self.claims_with_first_read(request):
            rowread.send_lead()   # claimed before the view runs
        response = self.get_response(request)
        if user is not None and user.failed:
            raise SessionUserChanged
        if claim.lost:
            raise KeyTaken
        if not transaction.get_rollback():
            rowread.send_lead()   # not claimed yet (the view was not reached, or read nothing): claim now
        if self.asks_retry(response) or transaction.get_rollback():
            transaction.set_rollback(True)   # nothing of an attempt that asks for a retry stays
            return response, False
        if hasattr(response, "render") and not response.is_rendered:
            response.render()
        if claim.pk is None:   # never commit a write without its key's record (a retry would apply it again)
            raise RuntimeError("the Idempotency-Key was not claimed")
        # Only while the claim is still ours: a worker that was taken over must not touch the record.
        self.store_answer((claim.pk, connection.ops.adapt_datetimefield_value(claim.created_at)), response)
        return response, True

    @staticmethod
    def store_answer(mine, response):
        """Store the answer on the claim ``mine`` ((id, created_at) as claimed): one plain UPDATE, sent with
        the request's other last writes just before the commit (``config.rowread.later``)."""
        rowread.later(f"UPDATE {TABLE} SET status = %s, content_type = %s, body = %s WHERE id = %s AND created_at = %s",
                      [response.status_code, response.get("Content-Type", ""), response.content, *mine])

    @staticmethod
    def store_alone(key, owner, request, fingerprint, response):
        """Store the answer of a request that wrote nothing (its transaction was rolled back)."""
        if hasattr(response, "render") and not response.is_rendered:
            response.render()
        try:
            with transaction.atomic():
                IdempotencyRecord.objects.create(key=key, owner=owner, method=request.method, path=request.path,
                                                 fingerprint=fingerprint, status=response.status_code,
                                                 content_type=response.get("Content-Type", ""),
                                                 body=response.content)
        except IntegrityError:
            pass   # a retry stored its own answer meanwhile

    @staticmethod
    def owner(request):
        """Whose key it is: the session's user, else a hash of the Authorization header (API clients
        using Basic auth are authenticated only later, by DRF), else "" for anonymous requests."""
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return str(user.pk)
        credentials = request.META.get("HTTP_AUTHORIZATION", "")
        return "auth:" + hashlib.sha256(credentials.encode()).hexdigest()[:32] if credentials else ""

    @staticmethod
    def take_over(record, fingerprint):
        """Re-claim ``record`` if its request was abandoned (still in progress after ABANDONED_AFTER).

        One conditional UPDATE (compare-and-swap on ``created_at``), so of concurrent retries exactly
        one wins; the others get 409. Returns whether ``record`` is now ours."""
        now = clock.now()
        if (record is None or record.status is not None or record.fingerprint != fingerprint
                or record.created_at >= now - ABANDONED_AFTER):
            return False
        won = IdempotencyRecord.objects.filter(
            pk=record.pk, created_at=record.created_at, status__isnull=True
        ).update(created_at=now)
        if won:
            record.created_at = now
        return bool(won)

    @staticmethod
    def replay(record, fingerprint):
        """The answer to a request whose key is already claimed: the stored answer, 422 or 409."""
        if record is None:  # the first attempt failed and was removed in the meantime
            return JsonResponse(error_body(None, _("Please try again.")), status=409)
        if record.fingerprint != fingerprint:
            return JsonResponse(
                error_body(None, _("This Idempotency-Key was used for a different request.")), status=422
            )
        if record.status is None:
            return JsonResponse(error_body(None, _("The same request is still being processed.")), status=409)
        response = HttpResponse(bytes(record.body), status=record.status, content_type=record.content_type)
        response["Idempotent-Replay"] = "true"
        return response


def purge_old_records():
    """Delete the records older than KEPT_FOR (their keys may then be used again); returns how many."""
    deleted, _ = IdempotencyRecord.objects.filter(created_at__lt=clock.now() - KEPT_FOR).delete()
    return deleted

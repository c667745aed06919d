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
back). Answers that ask for a retry (5xx, 409, 429) are rolled back with their claim: the retry runs again.
A record still "in progress" after ``ABANDONED_AFTER`` (left by the earlier, separately committed claim)
is taken over by a retry, which runs the request once.
Records older than ``KEPT_FOR`` are deleted by :func:`purge_old_records`, which Celery beat runs
every hour (``config.purge_idempotency_records``), off the request path.
"""
import datetime as dt
import hashlib

from django.db import IntegrityError, connection, transaction
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from . import clock
from .api_errors import error_body
from .db import request_transaction
from .models import IdempotencyRecord
from .rowread import first_rows, later

HEADER = "HTTP_IDEMPOTENCY_KEY"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
ABANDONED_AFTER = dt.timedelta(seconds=60)  # an in-progress record this old: its worker died
KEPT_FOR = dt.timedelta(hours=24)           # how long a stored answer is replayed
RETRY_LATER = {409, 429}                    # answers that are not stored: the same key runs again (as 5xx)
TABLE = IdempotencyRecord._meta.db_table


class _Claimed(Exception):
    """The key's record exists already (raised inside the transaction, so it rolls back)."""


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
        owner = self.owner(request)
        fingerprint = hashlib.sha256(
            request.method.encode() + b" " + request.path.encode() + b"\n" + request.body
        ).hexdigest()
        try:
            with request_transaction():
                try:
                    record = self.claim(key=key, owner=owner, method=request.method, path=request.path,
                                        fingerprint=fingerprint)
                except IntegrityError as exc:   # the key is stored: roll back, then replay it
                    raise _Claimed from exc
                response, stored = self.run(request, record)
            if not stored and not self.asks_retry(response):
                self.store_alone(key, owner, request, fingerprint, response)
            return response
        except _Claimed:
            pass
        record = IdempotencyRecord.objects.filter(key=key, owner=owner).first()
        if not self.take_over(record, fingerprint):
            return self.replay(record, fingerprint)
        with transaction.atomic():   # a claim committed earlier and abandoned: now ours
            response, _stored = self.run(request, record)
        if self.asks_retry(response):
            IdempotencyRecord.objects.filter(pk=record.pk, created_at=record.created_at).delete()
        return response

    @staticmethod
    def asks_retry(response):
        return response.status_code >= 500 or response.status_code in RETRY_LATER

    def run(self, request, record):
        """Run the request inside the caller's transaction and store its answer there; an answer that
        asks for a retry (5xx, 409, 429) rolls the transaction back, the claim with it. Returns (the answer,
        whether it is stored): an answer whose transaction an inner block without a savepoint spoiled
        (an error after which nothing of the request may stay) is rolled back and stored afterwards."""
        # Only while the claim is still ours: a worker that was taken over must not touch the record.
        mine = (record.pk, connection.ops.adapt_datetimefield_value(record.created_at))
        response = self.get_response(request)
        if self.asks_retry(response) or transaction.get_rollback():
            transaction.set_rollback(True)   # nothing of an attempt that asks for a retry stays
            return response, False
        if hasattr(response, "render") and not response.is_rendered:
            response.render()
        self.store_answer(mine, response)
        return response, True

    @staticmethod
    def store_answer(mine, response):
        """Store the answer on the claim ``mine`` ((id, created_at) as claimed): one plain UPDATE, sent with
        the request's other last writes just before the commit (``config.rowread.later``)."""
        later(f"UPDATE {TABLE} SET status = %s, content_type = %s, body = %s WHERE id = %s AND created_at = %s",
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
    def claim(**fields):
        """Insert the key's record, in the request's transaction: a concurrent attempt with the same key
        waits here until this one commits or rolls back (the unique index), then gets IntegrityError
        (replay the stored answer) or runs."""
        record = IdempotencyRecord(status=None, content_type="", body=b"", created_at=clock.now(), **fields)
        columns = ("key", "owner", "method", "path", "fingerprint", "content_type", "body", "created_at")
        values = [getattr(record, name) for name in columns[:-2]] + [
            b"", connection.ops.adapt_datetimefield_value(record.created_at)]
        # one plain INSERT (the ORM's bookkeeping costs more than it), sent with the transaction's BEGIN
        [(record.pk,)] = first_rows([(f"INSERT INTO {TABLE} ({', '.join(columns)}) "
                                      f"VALUES ({', '.join(['%s'] * len(columns))}) RETURNING id", values)])
        return record

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

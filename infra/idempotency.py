"""Idempotency-key middleware for the API (after pretix's idea).

A client (a referee's phone on a flaky venue network) sends ``Idempotency-Key: <key>`` with a POST, PUT,
PATCH or DELETE under ``/api/``. The first request runs and its answer is stored; a retry with the same
key gets the stored answer (``Idempotent-Replay: true``) and changes nothing. The same key with another
request (method, path or body) is refused with 422. A key is its owner's alone: a retry by another user
(or another API client) runs as a request of its own and never sees the first one's answer. Only an
authenticated writer's key is kept (:func:`infra.writers.key_owner`: an account, an API token, each in its own
namespace); a request with no credentials or failing ones stores nothing, throttled by address first.

One transaction holds the whole request: the key's record is inserted first (the claim), the view runs,
and the answer is stored on the record, so a write is never committed without its answer and a retry
after a lost connection cannot apply it twice. A retry sent while the first attempt still runs waits on
the key's unique index until the first commits, then gets its stored answer (or runs, if the first was
rolled back). Answers that ask for a retry (5xx, 409, 429) are rolled back with their claim. Records older
than ``KEPT_FOR`` are deleted by :func:`purge_old_records` (Celery beat, hourly).
"""
import datetime as dt
import hashlib
import json

from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _

from . import clock
from .api_errors import error_body
from .models import IdempotencyRecord
from .writers import key_owner

HEADER = "HTTP_IDEMPOTENCY_KEY"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
KEPT_FOR = dt.timedelta(hours=24)   # how long a stored answer is replayed
RETRY_LATER = {409, 429}            # answers that are not stored: the same key runs again (as 5xx)


class IdempotencyKeyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.META.get(HEADER, "").strip()
        if not key or request.method not in UNSAFE or not request.path.startswith("/api/"):
            return self.get_response(request)
        if len(key) > 200:
            return JsonResponse(error_body("Idempotency-Key", _("The Idempotency-Key is too long (at most 200 "
                                                                "characters)."), code="invalid"), status=400)
        owner, refusal = key_owner(request)
        if owner is None:   # no authenticated writer: nothing kept, refused or throttled before anything runs
            return refusal or self.get_response(request)
        claim = IdempotencyRecord(key=key, owner=owner, method=request.method, path=request.path,
                                  fingerprint=fingerprint_of(request))
        try:
            return self.run(request, claim)
        except IntegrityError:
            if claim.pk is not None:   # not the claim's: something after it (the view answers its own)
                raise
        return replay(claim)

    def run(self, request, claim):
        """The request run in one transaction with its key claimed first and its answer stored last.
        Raises IntegrityError (from the claim, nothing else written yet) when the key is stored already."""
        spoiled = False
        with transaction.atomic():
            claim.created_at = clock.now()
            claim.save(force_insert=True)   # waits here for an attempt of the same key still running
            response = self.get_response(request)
            spoiled = transaction.get_rollback()   # an inner block without a savepoint failed
            if asks_retry(response) or spoiled:
                transaction.set_rollback(True)   # nothing of this attempt stays, its claim included
            else:
                self.store_answer(claim, response)
        if spoiled and not asks_retry(response):
            store_alone(claim, response)   # a refusal that wrote nothing: still the key's answer
        return response

    @staticmethod
    def store_answer(record, response):
        """Store the answer on the claimed record, in the request's transaction."""
        answer_on(record, response)
        record.save(update_fields=["status", "content_type", "body"])


def asks_retry(response):
    return response.status_code >= 500 or response.status_code in RETRY_LATER


def fingerprint_of(request):
    """What makes two requests the same: the method, the path and the body."""
    return hashlib.sha256(request.method.encode() + b" " + request.path.encode() + b"\n" + request.body).hexdigest()


def secret(response):
    """Mark an answer that shows a secret once (a new token's key, a one-time password): caches and the
    idempotency store never keep it."""
    response["Cache-Control"] = "no-store"
    return response


def answer_on(record, response):
    if hasattr(response, "render") and not response.is_rendered:
        response.render()
    if "no-store" in response.get("Cache-Control", ""):   # a secret is never stored: a retry is told so
        record.status, record.content_type = 410, "application/json"
        record.body = json.dumps(error_body(None, _(
            "The answer showed a secret once and is not kept: revoke what was made and make another."),
            code="secret_shown_once"), ensure_ascii=False).encode()
        return
    record.status, record.content_type = response.status_code, response.get("Content-Type", "")
    record.body = response.content


def store_alone(claim, response):
    """Store the answer of a request whose own transaction was rolled back (it wrote nothing)."""
    answer_on(claim, response)
    claim.pk = None
    try:
        with transaction.atomic():
            claim.save(force_insert=True)
    except IntegrityError:
        pass   # a retry stored its own answer meanwhile


def replay(claim):
    """The answer to a request whose key is stored already: the stored answer, or 422 for another request."""
    record = IdempotencyRecord.objects.filter(key=claim.key, owner=claim.owner).first()
    if record is None or record.status is None:   # the first attempt was rolled back meanwhile
        return JsonResponse(error_body(None, _("Please try again."), code="retry"), status=409)
    if record.fingerprint != claim.fingerprint:
        return JsonResponse(error_body(None, _("This Idempotency-Key was used for a different request."),
                                       code="idempotency_key_reused"),
                            status=422)
    response = HttpResponse(bytes(record.body), status=record.status, content_type=record.content_type)
    response["Idempotent-Replay"] = "true"
    return response


def purge_old_records():
    """Delete the records older than KEPT_FOR (their keys may then be used again); returns how many."""
    deleted, _count = IdempotencyRecord.objects.filter(created_at__lt=clock.now() - KEPT_FOR).delete()
    return deleted

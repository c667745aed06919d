"""Idempotency-key middleware for the API (after pretix's idea).

A client (a referee's phone on a flaky venue network) sends ``Idempotency-Key: <uuid>`` with a POST,
PUT, PATCH or DELETE under ``/api/``. The first request runs and its answer is stored; a retry with the
same key gets the stored answer and changes nothing. The same key with a different request is refused
(422); a retry while the first is still running gets 409.
"""
import hashlib

from django.db import IntegrityError, transaction
from django.http import HttpResponse, JsonResponse

from .models import IdempotencyRecord

HEADER = "HTTP_IDEMPOTENCY_KEY"
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


class IdempotencyKeyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        key = request.META.get(HEADER, "").strip()
        if not key or request.method not in UNSAFE or not request.path.startswith("/api/"):
            return self.get_response(request)
        if len(key) > 200:
            return JsonResponse({"detail": "Idempotency-Key 过长 (at most 200 characters)"}, status=400)
        owner = self.owner(request)
        fingerprint = hashlib.sha256(
            request.method.encode() + b" " + request.path.encode() + b"\n" + request.body
        ).hexdigest()
        try:
            record = self.claim(key=key, owner=owner, method=request.method, path=request.path,
                                fingerprint=fingerprint)
        except IntegrityError:
            return self.replay(key, owner, fingerprint)

        response = self.get_response(request)
        if response.status_code >= 500:
            record.delete()  # let the client try again
            return response
        if hasattr(response, "render") and not response.is_rendered:
            response.render()
        IdempotencyRecord.objects.filter(pk=record.pk).update(
            status=response.status_code, content_type=response.get("Content-Type", ""), body=response.content
        )
        return response

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
        """Insert the key's record. In autocommit mode the single INSERT is atomic by itself (no
        BEGIN/COMMIT round trips); inside a transaction a savepoint keeps a duplicate key harmless."""
        if not transaction.get_connection().in_atomic_block:
            return IdempotencyRecord.objects.create(**fields)
        with transaction.atomic():
            return IdempotencyRecord.objects.create(**fields)

    @staticmethod
    def replay(key, owner, fingerprint):
        record = IdempotencyRecord.objects.filter(key=key, owner=owner).first()
        if record is None:  # the first attempt failed and was removed in the meantime
            return JsonResponse({"detail": "请重试 (please retry)"}, status=409)
        if record.fingerprint != fingerprint:
            return JsonResponse(
                {"detail": "同一 Idempotency-Key 用于不同的请求 (key reused for a different request)"}, status=422
            )
        if record.status is None:
            return JsonResponse({"detail": "相同请求正在处理中 (the same request is still being processed)"},
                                status=409)
        response = HttpResponse(bytes(record.body), status=record.status, content_type=record.content_type)
        response["Idempotent-Replay"] = "true"
        return response

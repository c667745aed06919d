"""Who writes an API request, for its Idempotency-Key (:mod:`infra.idempotency`): only an authenticated
writer's key is kept, in the writer's own namespace; a write with no credentials or failing ones keeps
nothing and is throttled by address before anything runs (else anyone could fill the
store: every anonymous POST would keep its answer)."""
from django.http import JsonResponse
from django.urls import reverse
from rest_framework import authentication, exceptions
from rest_framework.request import Request
from rest_framework.settings import api_settings

from .api_errors import WWW_AUTHENTICATE, error_body
from .auth import AnonThrottle


class KeyedWriteThrottle(AnonThrottle):
    """API writes with an Idempotency-Key from no authenticated writer (none or failing credentials), by
    address at the anonymous rate, counted before the view runs (which refuses them before its own throttle)."""

    cache_format = "throttle_%(scope)s_keyed_write_%(ident)s"


def key_owner(request):
    """Whose Idempotency-Key an API write's is: ``(owner, None)`` for an authenticated writer, in the
    writer's own namespace (an account: its id, the session's or Basic authentication's; a credential of its
    own, e.g. an API token: ``"<kind>:<id>"``); else ``(None, answer)``: nothing is kept for the request, and
    ``answer`` is its refusal (429 throttled, 401 failing credentials) or None (no credentials: the view
    answers, a 401 unless the operation is public). Credentials that authenticate here are remembered on the
    request (``checked_credentials``) for the same authenticator to answer again when DRF asks (:class:`infra.auth.CheckedOnce`):
    a token is looked up and a password hashed once. The session's own is left to DRF (its CSRF check)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return str(user.pk), None
    refusal = None
    wrapped = Request(request)
    for authenticator in api_settings.DEFAULT_AUTHENTICATION_CLASSES:
        if issubclass(authenticator, authentication.SessionAuthentication):
            continue
        try:
            found = authenticator().authenticate(wrapped)
        except exceptions.AuthenticationFailed as exc:
            refusal = JsonResponse(error_body(None, exc.detail, code="authentication_failed",
                                              login=reverse("login")), status=401)
            refusal["WWW-Authenticate"] = WWW_AUTHENTICATE
            break
        if found is not None:
            request.checked_credentials = (authenticator, found)
            credential = found[1]
            if getattr(credential, "pk", None) is None:
                return str(found[0].pk), None
            return f"{type(credential).__name__.lower()}:{credential.pk}", None
    throttle = KeyedWriteThrottle()
    if not throttle.allow_request(request, None):
        wait = throttle.wait()
        refusal = JsonResponse(error_body(None, exceptions.Throttled(wait).detail, code="throttled"), status=429)
        if wait is not None:
            refusal["Retry-After"] = str(max(1, round(wait)))
    return None, refusal

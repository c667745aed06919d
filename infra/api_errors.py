"""The one API error convention: every refused request answers ``{"code": ..., "field": ..., "detail": ...}``.

Engines and services raise :class:`common.errors.UserError` (or its 403/404/409 kinds) carrying the
field, a translatable message and its code; DRF raises its own validation, permission and not-found errors.
:func:`api_exception_handler` (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``) turns all of them into the same
body, the message in the active language (Chinese unless switched), never a raw field name inside it.
Views therefore catch nothing: they let the error reach the handler.

``code`` is one of :data:`common.errors.CODES` (the description's enum): a program branches on it, never on
``detail``. Missing or wrong credentials are a 401 with ``WWW-Authenticate`` (whichever authentication
the view tries first), a known user without the right a 403.
"""
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated, NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler

from common.errors import CODES, UserError

_DESCRIPTIONS = {
    400: "bad input; `field` names it",
    401: "credentials needed, or the ones sent are wrong (`WWW-Authenticate` says which)",
    403: "a known user without the right to do this",
    404: "no such object, or not visible to you",
    409: "conflict: somebody changed it first, or its state no longer allows this",
    410: "`secret_shown_once`: a retry (the same Idempotency-Key) of a write whose answer showed a secret once "
         "(a new token's key, a password): it is not kept; revoke what was made and make another",
    422: "the `Idempotency-Key` was used before for another request (method, address or body)",
    429: "too many requests: retry after `Retry-After` seconds",
    503: "`unavailable`: the database cannot be reached briefly; nothing was done: retry after `Retry-After` "
         "seconds (with the same Idempotency-Key)",
}


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx answer of the API."""

    code = serializers.ChoiceField(choices=list(CODES), help_text="what is wrong, as a stable name to branch on: "
                                   + "; ".join(f"`{code}`: {meaning}" for code, meaning in CODES.items()))
    field = serializers.CharField(allow_null=True, help_text="the input at fault (null: the request as a whole)")
    detail = serializers.CharField(help_text="what is wrong, in the interface's language")
    errors = serializers.DictField(required=False, help_text="every field's messages (validation errors only)")
    login = serializers.CharField(required=False, help_text="the login page (only when the request is not logged in)")


def describe_error(code):
    """The OpenAPI response of one error status code: the Error body and what the code means."""
    return OpenApiResponse(ErrorSerializer, description=_DESCRIPTIONS[code])


def error_responses(*codes):
    """OpenAPI responses for these error status codes (for ``extend_schema(responses=...)``)."""
    return {code: describe_error(code) for code in codes}


def _first_error(detail, prefix=""):
    """(dotted field name, first message) of a DRF validation error's detail."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            name = key if key != "non_field_errors" else ""
            return _first_error(value, f"{prefix}.{name}" if prefix and name else (name or prefix))
    if isinstance(detail, list) and detail:
        return _first_error(detail[0], prefix)
    return (prefix or None), str(detail)


def error_body(field, detail, *, code, **extra):
    return {"code": code, "field": field, "detail": str(detail), **extra}


#: The code of an answer by its status, when nothing finer is known.
STATUS_CODES = {400: "invalid", 401: "not_authenticated", 403: "forbidden", 404: "not_found",
                405: "method_not_allowed", 406: "not_acceptable", 409: "conflict", 413: "too_large",
                415: "unsupported_media_type", 422: "idempotency_key_reused", 429: "throttled",
                500: "server_error", 503: "unavailable"}
_DRF_CODES = {"permission_denied": "forbidden", "parse_error": "invalid"}
#: What a client is asked for when its credentials are missing or wrong (the API token; see the README).
WWW_AUTHENTICATE = 'Bearer realm="api"'


def _code(drf_code, status):
    """The body's code for DRF's own code of an error (its first one): ours when listed, else by status."""
    if isinstance(drf_code, str) and drf_code in CODES:
        return drf_code
    return _DRF_CODES.get(drf_code) or STATUS_CODES.get(status, "invalid")


def api_exception_handler(exc, context):
    """DRF's EXCEPTION_HANDLER: UserError and DRF's errors as ``{"code", "field", "detail"}`` with their status."""
    if isinstance(exc, UserError):
        return Response(error_body(exc.field, exc, code=exc.code), status=exc.status)
    if isinstance(exc, Http404):  # Django's message names the model in English: say it in the user's language
        exc = NotFound(_("No such object, or it is not visible to you."))
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        field, message = _first_error(exc.detail)
        # every field's messages; a bare message (a list) is the request's as a whole
        errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = error_body(field, message, code=_code(_first_error(exc.get_codes())[1], 400),
                                   errors=errors)
    else:
        data = response.data
        detail = data.get("detail", data) if isinstance(data, dict) else data
        extra = {}
        if isinstance(exc, (NotAuthenticated, AuthenticationFailed)):
            # not logged in (a session expired mid-entry) or refused credentials (a wrong or revoked token,
            # a locked name: their own reason): the pages show a login link from ``login``
            if isinstance(exc, NotAuthenticated):
                detail = _("You are not logged in, or your login has expired.")
            extra = {"login": reverse("login")}
            # DRF answers 403 when the view's first authentication (the session's) names no scheme: a
            # program is told to send its token
            response.status_code = 401
            response.setdefault("WWW-Authenticate", WWW_AUTHENTICATE)
        drf_code = exc.get_codes() if hasattr(exc, "get_codes") else None
        response.data = error_body(None, detail, code=_code(drf_code, response.status_code), **extra)
    return response

"""The one API error convention: every refused request answers ``{"field": ..., "detail": ...}``.

Engines and services raise :class:`common.errors.UserError` (or its 403/404/409 kinds) carrying the
field and a translatable message; DRF raises its own validation, permission and not-found errors.
:func:`api_exception_handler` (``REST_FRAMEWORK["EXCEPTION_HANDLER"]``) turns all of them into the same
body, the message in the active language (Chinese unless switched), never a raw field name inside it.
Views therefore catch nothing: they let the error reach the handler.
"""
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated, NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler

from common.errors import UserError

_DESCRIPTIONS = {
    400: "bad input; `field` names it",
    401: "credentials needed, or the ones sent are wrong",
    403: "not allowed (or the credentials sent are wrong)",
    404: "no such object, or not visible to you",
    409: "conflict: somebody changed it first, or its state no longer allows this",
    422: "the `Idempotency-Key` was used before for another request (method, address or body)",
    429: "too many requests: retry after `Retry-After` seconds",
}


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx answer of the API."""

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


def error_body(field, detail, **extra):
    return {"field": field, "detail": str(detail), **extra}


def api_exception_handler(exc, context):
    """DRF's EXCEPTION_HANDLER: UserError and DRF's errors as ``{"field", "detail"}`` with their status."""
    if isinstance(exc, UserError):
        return Response(error_body(exc.field, exc), status=exc.status)
    if isinstance(exc, Http404):  # Django's message names the model in English: say it in the user's language
        exc = NotFound(_("No such object, or it is not visible to you."))
    response = exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        field, message = _first_error(exc.detail)
        # every field's messages; a bare message (a list) is the request's as a whole
        errors = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        response.data = error_body(field, message, errors=errors)
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
        response.data = error_body(None, detail, **extra)
    return response

"""A side's code as the API's credential: ``Authorization: Side <match id>:<code>``.

The players have no account: their side's code is who writes (the Idempotency-Key's owner, ``infra.writers``:
``sidecode:<the code's row>``, so a phone's queued entries and confirmations upload once each, and a re-issued
code starts a namespace of its own). :class:`SideCodeAuthentication` stands in the API's authentication
classes for that: it recognises the code in force at the match it names and answers the anonymous user with
the code's row as the credential (once a request: the Idempotency-Key's owner found it, DRF is answered the
same, ``infra.auth.CheckedOnce``); any other header (a wrong code, another scheme) is not its own, so the
request goes on without it and the operation itself checks the code (:func:`tournament.selfscore.codes.side_of`:
counted and slowed). Nothing but the players' operations reads the credential: elsewhere the request is
anonymous.
"""
from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, permissions

from common.numbers import whole
from infra.auth import CheckedOnce, UserThrottle
from tournament.models import SideCode
from tournament.selfscore import codes

KEYWORD = b"side"


def credentials(request) -> tuple[int, str] | None:
    """(match id, code) from ``Authorization: Side <match id>:<code>``, or None."""
    parts = authentication.get_authorization_header(request).split()
    if len(parts) != 2 or parts[0].lower() != KEYWORD:
        return None
    try:
        match_id, _sep, code = parts[1].decode("ascii").partition(":")
    except UnicodeDecodeError:
        return None
    number = whole(match_id)
    return (number, code) if number is not None and code else None


def code_sent(request) -> str:
    """The code the request sends (the header's), "" when none."""
    found = credentials(request)
    return found[1] if found else ""


class SideCodeAuthentication(CheckedOnce, authentication.BaseAuthentication):
    def check(self, request):
        found = credentials(request)
        if found is None:
            return None
        side = codes.owner_of(*found)
        return None if side is None else (AnonymousUser(), side)

    def authenticate_header(self, request):
        return None   # never what a 401 asks for: a program logs in or sends its token


class SideCodeOrLogin(permissions.BasePermission):
    """The players' operations: read by anybody (the operation says what it shows), written with a side's code
    or a login. A code sent is checked by the operation itself (a wrong one is counted and slowed there)."""

    anonymous_read = True   # infra.api_schema: the read is public

    def has_permission(self, request, view):
        if request.method in permissions.SAFE_METHODS or (request.user and request.user.is_authenticated):
            return True
        return isinstance(request.auth, SideCode) or credentials(request) is not None


class SideThrottle(UserThrottle):
    """The players' operations, per side's code (every player shares no account), else as the API's own."""

    def get_cache_key(self, request, view):
        if isinstance(request.auth, SideCode):
            return self.cache_format % {"scope": self.scope, "ident": f"side{request.auth.pk}"}
        if request.user and request.user.is_authenticated:
            return super().get_cache_key(request, view)
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class SideCodeScheme(OpenApiAuthenticationExtension):
    """The side's code in the OpenAPI description, required by the players' writes only."""

    target_class = "tournament.selfscore.authentication.SideCodeAuthentication"
    name = "sideCode"

    def get_security_requirement(self, auto_schema):
        if getattr(auto_schema.view, "side_code", False) and auto_schema.method != "GET":
            return {self.name: []}
        return None

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "Authorization", "description": (
            "A side's code at a table where the players record the hands: `Authorization: Side <match id>:<code>` "
            "(the 8 digits on the side's slip from the desk). It works at its match only, while the match is open, "
            "until the desk issues the side a new one; it owns the writes' Idempotency-Key. A wrong code is a 400 "
            "on `code`; many wrong codes at a table or from an address a 429 (the right code is always taken).")}

"""The DRF authentication class for API tokens (``Authorization: Token <key>`` or ``Bearer <key>``).

The token's person acts in the token's event only (:mod:`tournament.staff.tokens`)."""
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from infra.auth import CheckedOnce
from tournament.staff.tokens import authenticate_key

_KEYWORDS = (b"token", b"bearer")


class ApiTokenAuthentication(CheckedOnce, authentication.BaseAuthentication):
    def check(self, request):
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() not in _KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("The API token is missing or malformed."))
        try:
            key = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("The API token is missing or malformed.")) from None
        found = authenticate_key(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("The API token is not valid or has been revoked."))
        return found

    def authenticate_header(self, request):
        return "Token"


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The token in the OpenAPI description."""

    target_class = "tournament.staff.authentication.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": (
            "An API token, `Authorization: Bearer trk_...` (or `Token trk_...`); no session, no CSRF token. Two "
            "kinds: an **event's token** acts as one person on the event's staff in that event only (made and "
            "revoked by the event's organisers on its staff page or with `/api/events/{slug}/tokens/`); a "
            "**site-wide organiser token** (`/api/tokens/`, made by an account that may create events, for "
            "itself) creates events (`POST /api/events/`) and acts with the roles its person holds in each event. "
            "A token is shown once; only its hash is kept. Missing, wrong or revoked: 401 with "
            "`WWW-Authenticate`; a known token without the right: 403.")}

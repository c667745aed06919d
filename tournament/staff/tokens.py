"""API tokens for scripts and referee devices: made by an event's organiser for a person on its staff (on
the staff page or through the API), shown once, kept as a SHA-256 digest, revocable; a token acts as its
person in its event only. A *site-wide* token (no event) is an organiser's own, for a program that creates
events: made by an account that may create events for itself.

A request carrying ``Authorization: Token <key>`` (or ``Bearer <key>``) is authenticated by
:class:`tournament.staff.authentication.ApiTokenAuthentication`, which calls :func:`authenticate_key`;
the user it returns carries ``token_event_id`` (an event's token: :func:`tournament.access.may` then grants
nothing outside that event and no site-wide role) or ``token_site`` (a site-wide token: the roles its person
holds in each event and creating events, no site-wide role).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction

from common.errors import NotFoundError, UserError, gettext_noop
from infra import clock
from tournament import access
from tournament.models import ApiToken, Event, EventRole

KEY_PREFIX = "trk_"
_LOOKUP_CHARS = 8  # characters after KEY_PREFIX stored in clear to find the row
MAX_NAME = 100


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _lookup(key: str) -> str:
    return key[len(KEY_PREFIX):len(KEY_PREFIX) + _LOOKUP_CHARS]


@transaction.atomic
def create_token(event: Event | None, user_id, name: str, *, by=None) -> tuple[ApiToken, str]:
    """A new token for a person on the event's staff (``event`` None: a site-wide token for an account that
    may create events); returns (token, key). The key is shown only now."""
    name = (name or "").strip()
    if not name:
        raise UserError(gettext_noop("Name the token (e.g. “table 3 tablet” or “results script”)."), field="name")
    if len(name) > MAX_NAME:
        raise UserError(gettext_noop("The name is too long (at most %(most)s characters)."), field="name",
                        most=MAX_NAME)
    try:
        user_id = int(user_id)
    except (TypeError, ValueError):
        user_id = None
    if event is None:
        user = get_user_model().objects.filter(pk=user_id, is_active=True).first() if user_id else None
        if user is None or not access.may_create_events(user):
            raise UserError(gettext_noop("A site-wide token is only for an account that may create events."),
                            field="user")
    elif user_id is None or not EventRole.objects.filter(event=event, user_id=user_id).exists():
        raise UserError(gettext_noop("Choose a person on the event's staff."), field="user")
    key = KEY_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(event=event, user_id=user_id, name=name, prefix=_lookup(key),
                                    digest=_digest(key), created_by=by, created_at=clock.now())
    return token, key


@transaction.atomic
def revoke_token(event: Event | None, token_id, *, by=None) -> ApiToken:
    """Revoke a token of the event (kept, marked with who and when); revoking twice changes nothing.
    ``event`` None: one of ``by``'s own site-wide tokens."""
    try:
        token_id = int(token_id)
    except (TypeError, ValueError):
        token_id = None
    owned = ApiToken.objects.filter(event=event) if event is not None else site_tokens_of(by)
    token = owned.select_for_update().filter(pk=token_id).first() if token_id else None
    if token is None:
        raise NotFoundError(gettext_noop("No such token in this event.") if event is not None
                            else gettext_noop("No such site-wide token of yours."), field="id")
    if token.revoked_at is None:
        token.revoked_at, token.revoked_by = clock.now(), by
        token.save(update_fields=["revoked_at", "revoked_by"])
    return token


def event_tokens(event: Event) -> list[ApiToken]:
    return list(ApiToken.objects.filter(event=event).select_related("user").order_by("revoked_at", "-created_at"))


def site_tokens_of(user):
    """``user``'s own site-wide tokens (the live ones first, the newest first)."""
    return (ApiToken.objects.filter(event__isnull=True, user_id=getattr(user, "pk", None) or 0)
            .select_related("user").order_by("revoked_at", "-created_at"))


def authenticate_key(key: str):
    """The user a live token acts as (with ``token_event_id`` set), or None. One indexed read, one hash."""
    if not key.startswith(KEY_PREFIX) or len(key) > 100 or "\x00" in key:
        return None
    digest = _digest(key)
    for token in ApiToken.objects.filter(prefix=_lookup(key), revoked_at__isnull=True).select_related("user"):
        if hmac.compare_digest(token.digest, digest) and token.user.is_active:
            user = token.user
            user.token_event_id = token.event_id
            user.token_site = token.event_id is None
            return user, token
    return None

"""The registration links and window: a private link per unit (per person in an open event), the event's
registration window, and when a link is read-only (:func:`closed_reason`). The draft a link's holder edits,
and the organiser's review of it, are :mod:`tournament.entries.registration`.

A link is ``secrets.token_urlsafe`` shown once (page, card); only its SHA-256 digest is kept and looked up. A
revoked or unknown key finds nothing (the page answers 404). To print a card again the organiser has the
link's key replaced (:func:`reissue`): the old key (and its card) stops working, the history stays."""
from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, gettext_noop
from infra import clock
from tournament.entries import pairs as entry_pairs
from tournament.entries.services import EntryError, PairData, PlayerData, clean_pair, entries_locked_msgid, open_event
from tournament.models import Event, RegistrationWindow, UnitLink

KEY_BYTES = 24
CLOSED = gettext_noop("Registration has closed: the entries can be read but no longer changed. Ask the "
                      "organiser to reopen your unit.")


def digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


# --------------------------------------------------------------------------- links
def create_link(event: Event, unit_name: str, *, individual: bool = False, phone: str = "",
                by=None) -> tuple[UnitLink, str]:
    """A new link for ``unit_name`` (the unit is made when new); returns (link, key), the key shown only now."""
    with transaction.atomic():
        event = open_event(event)
        data = clean_pair(PairData(unit=unit_name, player1=PlayerData("a", "M"), player2=PlayerData("b", "M")))
        phone = (phone or "").strip()
        if len(phone) > 30:
            raise EntryError(gettext_noop("The phone is too long (at most 30 digits)."), "phone")
        unit = entry_pairs.unit_named(event, data.unit)
        if unit.links.filter(revoked_at__isnull=True).exists():
            raise EntryError(gettext_noop("“%(unit)s” already has a link: revoke it first to make a new one."),
                             "unit", unit=unit.name)
        key = _new_key()
        link = UnitLink.objects.create(event=event, unit=unit, individual=individual, digest=digest(key),
                                       contact_phone=phone, created_at=clock.now(), created_by=by)
    return link, key


def _new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def find_link(key: str) -> UnitLink | None:
    """The live link of ``key`` (one indexed read of its digest), or None: unknown, revoked, malformed."""
    if not key or len(key) > 100:
        return None
    return (UnitLink.objects.select_related("event__profile", "unit").filter(digest=digest(key),
                                                                           revoked_at__isnull=True).first())


def reissue(link: UnitLink) -> tuple[UnitLink, str]:
    """A new key for the unit's link (to print its card again: the key is kept only as a digest, so the old
    one cannot be shown again). The old key stops opening the page at once; the unit's drafts, submissions
    and approvals stay with the link. Returns (link, new key), the key shown only now."""
    with transaction.atomic():
        link = UnitLink.objects.select_for_update().select_related("event__profile", "unit").get(pk=link.pk)
        if link.revoked_at is not None:
            raise ConflictError(gettext_noop("This link has been revoked."), "link")
        key = _new_key()
        link.digest = digest(key)
        link.reissued_at = clock.now()
        link.save(update_fields=["digest", "reissued_at"])
    return link, key


def revoke(link: UnitLink) -> None:
    if link.revoked_at is None:
        link.revoked_at = clock.now()
        link.save(update_fields=["revoked_at"])


def reopen(link: UnitLink) -> None:
    """Let this one unit change its entries after the deadline."""
    link.reopened = True
    link.save(update_fields=["reopened"])


def window(event: Event) -> RegistrationWindow:
    return RegistrationWindow.objects.filter(event=event).first() or RegistrationWindow(event=event)


def set_window(event: Event, closes_at, asks_phone: bool) -> RegistrationWindow:
    row, _created = RegistrationWindow.objects.update_or_create(
        event=event, defaults={"closes_at": closes_at, "asks_phone": bool(asks_phone)})
    return row


def closed_reason(link: UnitLink) -> str | None:
    """Why the link is read-only now (in the active language), or None."""
    locked = entries_locked_msgid(link.event)
    if locked:
        return _(locked)
    closes = window(link.event).closes_at
    if closes is not None and clock.now() >= closes and not link.reopened:
        return _(CLOSED)
    return None

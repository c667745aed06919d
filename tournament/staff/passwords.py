"""One-time passwords: a password someone else set (an organiser on the staff page, a site administrator on the
organisers' page) and handed over on a card. Its first login sets a new one before anything else
(``infra.auth``: the login page takes it and asks for a new password; a session of the account is anonymous
until then; Basic authentication refuses it). Kept in :class:`tournament.models.StaffAccount`.
"""
from __future__ import annotations

from django.db.models import Exists, OuterRef

from tournament.models import Event, StaffAccount


def mark_one_time(user, *, made_for: Event | None = None) -> None:
    """``user``'s password was just set by someone else: the next login sets a new one. ``made_for``: the event
    whose staff page made the account (its organisers may give it a new one-time password later)."""
    defaults = {"one_time_password": True}
    if made_for is not None:
        defaults["made_for"] = made_for
    StaffAccount.objects.update_or_create(user=user, defaults=defaults)


def password_set_by_owner(user) -> None:
    """The owner set their own password: it is no longer a one-time password."""
    StaffAccount.objects.filter(user=user, one_time_password=True).update(one_time_password=False)


def with_one_time_flag(users):
    """The users with ``one_time_password_pending`` read in the same query."""
    pending = StaffAccount.objects.filter(user_id=OuterRef("pk"), one_time_password=True)
    return users.annotate(one_time_password_pending=Exists(pending))


def has_one_time_password(user) -> bool:
    """Must this account set a new password at its next login?"""
    known = getattr(user, "one_time_password_pending", None)
    if known is not None:
        return bool(known)
    return StaffAccount.objects.filter(user_id=user.pk, one_time_password=True).exists()

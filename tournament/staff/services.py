"""Staff per event: adding people to an event's roles (an existing account or a new one with a display
name, a username made from its pinyin and a one-time password), removing a role, resetting a password, and
the accounts a site superuser makes for organisers. The display name (``User.first_name``) is how a
person is named everywhere; the login name is never shown.
"""
from __future__ import annotations

import re
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from pypinyin import lazy_pinyin

from common.errors import ForbiddenError, NotFoundError, UserError, gettext_noop
from common.names import display_name  # also services.display_name for the staff pages and API
from tournament import roles
from tournament.models import Event, EventRole

USERNAME_RE = re.compile(r"^[A-Za-z0-9_.@+-]{1,150}$")
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a printed card
PASSWORD_LENGTH = 10
ROLE_ORDER = [EventRole.Role.ORGANISER, EventRole.Role.CHIEF_REFEREE, EventRole.Role.TABLE_REFEREE,
              EventRole.Role.ARBITRATION]
HEADED_ROLES = {EventRole.Role.CHIEF_REFEREE, EventRole.Role.ARBITRATION}  # the first one added is the head


class StaffError(UserError):
    """A refused staff change (HTTP 400), naming the field at fault."""


def ascii_of(text: str) -> str:
    """Pinyin of a Chinese text as lower-case letters and digits ("张裁判" -> "zhangcaipan")."""
    return re.sub(r"[^a-z0-9]", "", "".join(lazy_pinyin(text or "")).lower())


def unique_username(display: str) -> str:
    """A free login name made from the display name's pinyin ("zhangcaipan", "zhangcaipan2", ...)."""
    base = ascii_of(display)[:30] or "staff"
    users = get_user_model().objects
    name, n = base, 1
    while users.filter(username__iexact=name).exists():
        n += 1
        name = f"{base}{n}"
    return name


def new_password() -> str:
    """A one-time password, shown once and printed on the staff card."""
    return "".join(secrets.choice(PASSWORD_ALPHABET) for _ in range(PASSWORD_LENGTH))


def _check_role(role):
    if role not in EventRole.Role.values:
        raise StaffError(gettext_noop("Choose a role: organiser, chief referee, table referee or arbitration."),
                         field="role")


def _check_password(password):
    if password is not None and len(str(password)) < 6:
        raise StaffError(gettext_noop("A password needs at least 6 characters."), field="password")


def _new_account(display: str, username: str = "", password: str | None = None):
    """Create an account; returns (user, the password to show once)."""
    display = (display or "").strip()
    if not display:
        raise StaffError(gettext_noop("Enter the person's name as it should be shown (e.g. 张裁判)."),
                         field="display_name")
    if len(display) > 150:
        raise StaffError(gettext_noop("The name is too long (at most 150 characters)."), field="display_name")
    _check_password(password)
    username = (username or "").strip() or unique_username(display)
    if not USERNAME_RE.match(username):
        raise StaffError(gettext_noop("A login name may hold letters, digits and . @ + - _ only."), field="username")
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise StaffError(gettext_noop("The login name %(name)s is taken."), field="username", name=username)
    password = password or new_password()
    user = get_user_model().objects.create_user(username=username, password=password, first_name=display)
    return user, password


@transaction.atomic
def add_staff(event: Event, role: str, *, username: str = "", display: str = "", password: str | None = None):
    """Give a person a role in the event. An existing login name gets the role added (its password is not
    touched unless one is given); otherwise a new account is made (the login name from the display name's
    pinyin when none is given, a generated password when none is given).

    Returns ``(EventRole, password or None)``: the password only when it was set now.
    """
    _check_role(role)
    username = (username or "").strip()
    user = get_user_model().objects.filter(username__iexact=username).first() if username else None
    shown = None
    if user is None:
        user, shown = _new_account(display, username, password)
    else:
        if user.is_superuser:
            raise StaffError(gettext_noop("A site administrator cannot be given event roles."), field="username")
        if display and not user.first_name:
            user.first_name = display.strip()[:150]
            user.save(update_fields=["first_name"])
        if password:
            _check_password(password)
            if EventRole.objects.filter(user=user).exclude(event=event).exists():
                raise StaffError(gettext_noop("This person also works at other events: their password can only "
                                              "be changed by themselves or a site administrator."), field="password")
            user.set_password(password)
            user.save(update_fields=["password"])
            shown = password
    row, _ = EventRole.objects.get_or_create(event=event, user=user, role=role)
    return row, shown


@transaction.atomic
def remove_staff(event: Event, role_id) -> None:
    """Take a role away (the account and every record naming the person stay). The last organiser stays."""
    row = EventRole.objects.select_for_update().filter(event=event, pk=role_id).first()
    if row is None:
        raise NotFoundError(gettext_noop("No such staff role in this event."), field="id")
    if row.role == EventRole.Role.ORGANISER and EventRole.objects.filter(
            event=event, role=EventRole.Role.ORGANISER).count() == 1:
        raise StaffError(gettext_noop("An event keeps at least one organiser."), field="role")
    row.delete()


@transaction.atomic
def reset_password(event: Event, user_id) -> tuple:
    """A new one-time password for a person on this event's staff only; returns (user, password)."""
    user = get_user_model().objects.filter(pk=user_id, event_roles__event=event).distinct().first()
    if user is None:
        raise NotFoundError(gettext_noop("This person is not on the event's staff."), field="user")
    if user.is_superuser or user.is_staff or EventRole.objects.filter(user=user).exclude(event=event).exists():
        raise ForbiddenError(gettext_noop("This person also works at other events: their password can only be "
                                          "reset by a site administrator."), field="user")
    password = new_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    return user, password


@transaction.atomic
def create_organiser_account(display: str, username: str = "", password: str | None = None):
    """A site superuser's page: an account that may create events (and becomes organiser of those)."""
    user, password = _new_account(display, username, password)
    user.user_permissions.add(Permission.objects.get(content_type__app_label="tournament", codename="add_event"))
    return user, password


def organiser_accounts():
    """The accounts allowed to create events (superusers aside), by display name."""
    return (get_user_model().objects.filter(user_permissions__codename="add_event",
                                            user_permissions__content_type__app_label="tournament")
            .order_by("first_name", "username"))


def staff_rows(event: Event) -> list:
    """The event's staff as rows (role order, then the order they were added), with the heads marked."""
    rows = list(EventRole.objects.filter(event=event).select_related("user").order_by("id"))
    seen, out = set(), []
    for row in sorted(rows, key=lambda r: (ROLE_ORDER.index(r.role), r.pk)):
        row.is_head = row.role in HEADED_ROLES and row.role not in seen
        seen.add(row.role)
        row.name = display_name(row.user)
        out.append(row)
    return out


def referees_of(event: Event):
    """The people who may referee a table at the event: its chief and table referees (and the holders of
    the site-wide referee roles), by display name."""
    users = get_user_model().objects
    per_event = users.filter(event_roles__event=event,
                             event_roles__role__in=[roles.TABLE_REFEREE, roles.CHIEF_REFEREE])
    site_wide = users.filter(groups__name__in=[roles.TABLE_REFEREE, roles.CHIEF_REFEREE])
    return (per_event | site_wide).distinct().order_by("first_name", "username")


def add_creator(event: Event, user) -> None:
    """The creator of an event becomes its organiser (a superuser holds every role already)."""
    if user is not None and user.is_authenticated and not user.is_superuser:
        EventRole.objects.get_or_create(event=event, user=user, role=EventRole.Role.ORGANISER)

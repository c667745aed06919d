"""Staff per event: adding people to an event's roles (an existing account or a new one with a display
name, a username made from its pinyin and a one-time password), removing a role, resetting a password, and
the accounts a site superuser makes for organisers. The display name (``User.first_name``) is how a
person is named everywhere; the login name is never shown.

An account belongs to its owner: adding an existing login name to an event gives it the role and changes
nothing of the account (password, name, flags). Only the owner (or a superuser) sets a password; what an
organiser hands over is a one-time password (``tournament.staff.passwords``): for an account made for
their event, never for one that works elsewhere or holds a site-wide power.
"""
from __future__ import annotations

import re
import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.db.models import Q
from pypinyin import Style, lazy_pinyin

from common.errors import ForbiddenError, NotFoundError, UserError, gettext_noop
from common.names import display_name  # also services.display_name for the staff pages and API
from infra import auth
from tournament import access
from tournament.models import Event, EventRole, StaffAccount
from tournament.staff import passwords

USERNAME_RE = re.compile(r"^[A-Za-z0-9_.@+-]{1,150}$")
PASSWORD_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a printed card
PASSWORD_LENGTH = 10
ROLE_ORDER = [EventRole.Role.ORGANISER, EventRole.Role.CHIEF_REFEREE, EventRole.Role.TABLE_REFEREE,
              EventRole.Role.ARBITRATION]
#: The longest name shown on pages and printouts (``User.first_name``).
DISPLAY_MAX = 150
HEADED_ROLES = {EventRole.Role.CHIEF_REFEREE, EventRole.Role.ARBITRATION}  # the first one added is the head


class StaffError(UserError):
    """A refused staff change (HTTP 400), naming the field at fault."""


def ascii_of(text: str) -> str:
    """Pinyin of a Chinese text as lower-case letters and digits ("张裁判" -> "zhangcaipan")."""
    return re.sub(r"[^a-z0-9]", "", "".join(lazy_pinyin(text or "")).lower())


def short_ascii(text: str, longest: int) -> str:
    """The text's pinyin when it has at most ``longest`` letters ("张裁判" -> "zhangcaipan"), else its initials
    (a Chinese character's first letter, a Latin word's, digits whole: "区总工会周小梅" -> "qzghzxm")."""
    full = ascii_of(text)
    if len(full) <= longest:
        return full
    parts = lazy_pinyin(text or "", style=Style.FIRST_LETTER)
    initials = "".join(part if part.isdigit() else "".join(word[:1] for word in part.split()) for part in parts)
    return re.sub(r"[^a-z0-9]", "", initials.lower())


#: The longest login name made from a display name before it is shortened to initials (a card is typed from).
SHORT_LOGIN = 12


def unique_username(display: str) -> str:
    """A free, short login name made from the display name ("zhangcaipan"; "qzghzxm" for 区总工会周小梅;
    "zhangcaipan2", ... when taken): the staff page lets the organiser type another."""
    base = short_ascii(display, SHORT_LOGIN)[:30] or "staff"
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


def _new_account(display: str, username: str = "", password: str | None = None, *, made_for: Event | None = None):
    """Create an account with a one-time password (its first login sets a new one); returns (user, the
    password to show once)."""
    display = (display or "").strip()
    if not display:
        raise StaffError(gettext_noop("Enter the person's name as it should be shown (e.g. 张裁判)."),
                         field="display_name")
    if len(display) > DISPLAY_MAX:
        raise StaffError(gettext_noop("The name is too long (at most 150 characters)."), field="display_name")
    _check_password(password)
    username = (username or "").strip() or unique_username(display)
    if not USERNAME_RE.match(username):
        raise StaffError(gettext_noop("A login name may hold letters, digits and . @ + - _ only."), field="username")
    if get_user_model().objects.filter(username__iexact=username).exists():
        raise StaffError(gettext_noop("The login name %(name)s is taken."), field="username", name=username)
    password = password or new_password()
    user = get_user_model().objects.create_user(username=username, password=password, first_name=display)
    passwords.mark_one_time(user, made_for=made_for)
    return user, password


@transaction.atomic
def add_staff(event: Event, role: str, *, username: str = "", display: str = "", password: str | None = None):
    """Give a person a role in the event. An existing login name gets the role added and nothing else: its
    password, name and flags stay its owner's (a password given with it is refused). Otherwise a new account
    is made for the event (the login name from the display name's pinyin when none is given), with a
    one-time password (generated when none is given) that its first login replaces.

    Returns ``(EventRole, password or None)``: the password only when a new account was made.
    """
    _check_role(role)
    username = (username or "").strip()
    user = get_user_model().objects.filter(username__iexact=username).first() if username else None
    shown = None
    if user is None:
        user, shown = _new_account(display, username, password, made_for=event)
    else:
        if user.is_superuser:
            raise StaffError(gettext_noop("A site administrator cannot be given event roles."), field="username")
        if password:
            raise StaffError(gettext_noop("This login name is an existing account: its password stays its owner's. "
                                          "Leave the password empty to give it the role."), field="password")
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


def resettable(event: Event, users) -> set:
    """The ids of the accounts among ``users`` whose password the event's organisers may reset: accounts of
    this event only, made on its staff page (or ones nobody can log in to, as an imported person's), working
    at no other event, with no site-wide power (superuser, the Django admin, a site-wide role or permission
    such as creating events). Three queries whatever the number."""
    users = list(users)
    ids = [user.pk for user in users]
    powers = set(get_user_model().objects.filter(pk__in=ids).filter(
        Q(is_superuser=True) | Q(is_staff=True) | Q(groups__isnull=False) | Q(user_permissions__isnull=False))
        .values_list("pk", flat=True))
    elsewhere = set(EventRole.objects.filter(user_id__in=ids).exclude(event=event).values_list("user_id", flat=True))
    made_here = set(StaffAccount.objects.filter(user_id__in=ids, made_for=event, demo=False)
                    .values_list("user_id", flat=True))
    return {user.pk for user in users if user.pk not in powers | elsewhere
            and (user.pk in made_here or not user.has_usable_password())}


def may_reset_password(event: Event, user) -> bool:
    """May the event's organisers give ``user`` a new one-time password (:func:`resettable`)?"""
    return user.pk in resettable(event, [user])


@transaction.atomic
def reset_password(event: Event, user_id) -> tuple:
    """A new one-time password for an account of this event (:func:`may_reset_password`); returns (user,
    password). Its next login sets a new one."""
    on_staff = EventRole.objects.filter(event=event).values("user_id")
    user = get_user_model().objects.select_for_update().filter(pk=user_id, pk__in=on_staff).first()
    if user is None:
        raise NotFoundError(gettext_noop("This person is not on the event's staff."), field="user")
    if not may_reset_password(event, user):
        raise ForbiddenError(gettext_noop("This account was not made for this event, or it works elsewhere too: "
                                          "only its owner or a site administrator may set its password."),
                             field="user")
    password = new_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    passwords.mark_one_time(user)
    return user, password


def unlock_login(event: Event, user_id, *, by=None):
    """Lift a login lockout of a person on this event's staff (from every address); returns the user. Only for
    an account of this event (:func:`resettable`: the event's organisers hold its keys anyway) or by a
    superuser: anyone else's lockout is no organiser's to lift (it keeps nobody out of their own device)."""
    user = get_user_model().objects.filter(pk=user_id, event_roles__event=event).distinct().first()
    if user is None:
        raise NotFoundError(gettext_noop("This person is not on the event's staff."), field="user")
    if not (by is not None and by.is_superuser) and not may_reset_password(event, user):
        raise ForbiddenError(gettext_noop("This account works elsewhere too: only a site administrator may lift "
                                          "its lock (it still logs in from another device)."), field="user")
    auth.unlock(user.username)
    return user


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
    """The event's staff as rows (role order, then the order they were added), with the heads marked and,
    for the staff page, whether the person's login is locked (``locked``) and whether the event's organisers
    may give them a new password (``resettable``)."""
    rows = list(EventRole.objects.filter(event=event).select_related("user").order_by("id"))
    locked = auth.locked_names({row.user.username for row in rows})
    may_reset = resettable(event, {row.user_id: row.user for row in rows}.values())
    seen, out = set(), []
    for row in sorted(rows, key=lambda r: (ROLE_ORDER.index(r.role), r.pk)):
        row.is_head = row.role in HEADED_ROLES and row.role not in seen
        seen.add(row.role)
        row.name = display_name(row.user)
        row.locked = row.user.username in locked
        row.resettable = row.user_id in may_reset
        out.append(row)
    return out


def add_creator(event: Event, user) -> None:
    """The creator of an event becomes its organiser (a superuser holds every role already, except through a
    site-wide token, which holds only the roles of each event)."""
    if user is not None and user.is_authenticated and not (user.is_superuser and not access.token_site(user)):
        EventRole.objects.get_or_create(event=event, user=user, role=EventRole.Role.ORGANISER)

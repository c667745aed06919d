"""The people an event file names, and the accounts they become here. The upload page's second step lists
them (:func:`people`: each with the account proposed for them), and the import maps them: for an organiser's
upload, to the accounts the organiser chose among those they may give roles (:func:`mappable_accounts`:
never a superuser, an account of the Django admin or with a site-wide role, nor another event's organiser) or
to new accounts without a usable password (:func:`users_mapped`); for the installation's own command, by login
name, refusing a file that gives a role to a site administrator (:func:`users_by_name`)."""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.db.models.functions import Lower

from common.errors import gettext_noop
from common.names import full_name
from rulings.models import Ruling
from scoring.models import Hand
from tournament.models import Event, EventRole, RefereeUnit
from tournament.staff.services import USERNAME_RE, ascii_of
from tournament.transfer import codec
from tournament.transfer.codec import TransferError
from tournament.transfer.tables import USER_FIELDS, label


@dataclass(frozen=True)
class Person:
    """A user the file names: their id and login name there, their name, their roles in the event (EventRole
    values), whether they referee tables, and the account here proposed for them (None: a new account);
    ``refused_namesake``: an account here has their login name, but the importer may not give it roles."""

    id: int
    username: str
    name: str
    roles: tuple
    referee: bool
    proposed: int | None = None
    refused_namesake: bool = False

    @property
    def field(self) -> str:
        """The upload page's field (and the refusal's) for this person's account."""
        return f"account-{self.id}"


def mappable_accounts(by):
    """The existing accounts ``by`` (the importing organiser) may give roles in the imported event: themselves
    and the staff of the events they organise (of every event, for a superuser), but never a superuser, an
    account of the Django admin (``is_staff``) or with a site-wide role or permission (a site organiser who may
    create events), nor an organiser of an event ``by`` does not organise."""
    users = get_user_model().objects
    organiser = EventRole.Role.ORGANISER
    organised = Event.objects.all() if by.is_superuser else Event.objects.filter(staff__user=by,
                                                                                 staff__role=organiser)
    colleagues = EventRole.objects.filter(event__in=organised).values("user_id")
    elsewhere = EventRole.objects.filter(role=organiser).exclude(event__in=organised).values("user_id")
    powers = users.filter(Q(is_superuser=True) | Q(is_staff=True) | Q(groups__isnull=False)
                          | Q(user_permissions__isnull=False)).values("pk")
    allowed = Q(pk__in=colleagues) & ~Q(pk__in=powers) & ~Q(pk__in=elsewhere)
    if not by.is_superuser:  # a superuser holds every role already: never given one
        allowed |= Q(pk=by.pk)
    return users.filter(allowed).order_by("first_name", "last_name", "username")


def _role_holders(data) -> tuple[dict, set]:
    """``({file user id: [EventRole values]}, {file user ids refereeing tables or given a referee's unit})``."""
    roles, referees = {}, set()
    for row in data["tables"][label(EventRole)]:
        if row["role"] not in EventRole.Role.values:
            raise ValueError(f"role {row['role']!r}")
        roles.setdefault(row["user_id"], []).append(row["role"])
    referees.update(row["user_id"] for row in data["tables"][label(RefereeUnit)])
    referees.update(user for _match, user in data["match_referees"])
    return roles, referees


def people(data, by) -> list[Person]:
    """Everyone the file ``data`` names (those with a role first), each with the account proposed here: the
    account of the same login name when ``by`` may give it roles, else a new account."""
    try:
        roles, referees = _role_holders(data)
        rows = [(row["id"], row["username"], full_name(row["first_name"], row["last_name"])) for row in data["users"]]
        if not all(isinstance(i, int) and isinstance(u, str) and u for i, u, _n in rows):
            raise ValueError("users")
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        raise codec.damaged("users") from None
    mappable = {u.username.lower(): u.pk for u in mappable_accounts(by)}
    here = set(get_user_model().objects.annotate(low=Lower("username"))
               .filter(low__in=[u.lower() for _i, u, _n in rows]).values_list("low", flat=True))
    found = [Person(i, u, n or u, tuple(sorted(set(roles.get(i, ())), key=EventRole.Role.values.index)),
                    i in referees, mappable.get(u.lower()), u.lower() in here and u.lower() not in mappable)
             for i, u, n in rows]
    order = EventRole.Role.values
    return sorted(found, key=lambda p: (order.index(p.roles[0]) if p.roles else len(order) + (not p.referee), p.name))


def summary(data) -> dict:
    """The event a checked file holds, as the upload page names it: its name, web address, hands and rulings."""
    try:
        tables = data["tables"]
        event = tables[label(Event)][0]
        return {"name": str(event["name"]), "slug": str(event["slug"]), "hands": len(tables[label(Hand)]),
                "rulings": len(tables[label(Ruling)])}
    except (KeyError, IndexError, TypeError):
        return {"name": "", "slug": "", "hands": 0, "rulings": 0}


def read_people(raw: bytes | str, by) -> tuple[dict, list[Person]]:
    """The checked file (``codec.parse``) and the people it names (the upload page's second step)."""
    data = codec.parse(raw)
    return data, people(data, by)


def users_by_name(data) -> tuple[dict, list]:
    """Old user id -> user id here (found by username, or created without a usable password): the
    installation's own restore. A file giving a role to a site administrator's login name is refused."""
    model = get_user_model()
    roles, referees = _role_holders(data)
    found, created = {}, []
    for row in data["users"]:
        username = row["username"]
        if not isinstance(username, str) or not username:
            raise ValueError("username")
        user = model.objects.filter(username=username).first()
        if user is None:
            user = model(**{k: row[k] for k in USER_FIELDS})
            user.set_unusable_password()
            user.save()
            created.append(username)
        elif user.is_superuser and (row["id"] in roles or row["id"] in referees):
            raise TransferError(gettext_noop("The file gives %(name)s a role in the event, but here that login name "
                                             "is a site administrator's: nothing was imported."), field="file",
                                name=username)
        found[row["id"]] = user.pk
    return found, created


def users_mapped(rows, by, accounts) -> tuple[dict, list]:
    """Old user id -> the account ``accounts`` names for them (one ``by`` may give roles, each for one person
    only), or a new account without a usable password."""
    allowed = set(mappable_accounts(by).values_list("pk", flat=True))
    found, created, taken = {}, [], set()
    for row in rows:
        old, chosen = row["id"], accounts.get(row["id"])
        if chosen is None:
            user = _new_account(row)
            created.append(user.username)
            chosen = user.pk
        elif chosen not in allowed:
            raise TransferError(gettext_noop("This account cannot be given roles in the imported event: choose "
                                             "one from the list or a new account."), field=f"account-{old}")
        elif chosen in taken:
            raise TransferError(gettext_noop("Another person of the file is this account already: choose a "
                                             "different account or a new one."), field=f"account-{old}")
        taken.add(chosen)
        found[old] = chosen
    return found, created


def _new_account(row):
    """A new account for a person of the file (their login name when it is free here, else one made from it),
    with their name and no usable password."""
    model = get_user_model()
    username = row["username"]
    name = full_name(row["first_name"], row["last_name"])
    base = username if isinstance(username, str) and USERNAME_RE.match(username) else ascii_of(name) or "staff"
    base, candidate, n = base[:140], base[:150], 1
    while model.objects.filter(username__iexact=candidate).exists():
        n += 1
        candidate = f"{base}-{n}"
    user = model(username=candidate, first_name=str(row["first_name"] or "")[:150],
                 last_name=str(row["last_name"] or "")[:150], email=str(row["email"] or "")[:254],
                 is_active=row["is_active"] is not False)
    user.set_unusable_password()
    user.save()
    return user

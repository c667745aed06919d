"""Export a whole event as one file and import it on another installation (``tournament.transfer.codec`` is
the file's format).

What travels: the event with its settings and organiser choices, the rule-profile versions it uses, units,
players, teams, pairs, sign-ups, removals, draws, stages, groups, rounds, matches with their referees,
hands and corrections, rulings with their voids, approvals, choices, appeals and decisions, result decisions,
round closures, clock settings, clock events, firings, hand allowances, first-lead reports and the staff
roles. Every who/when field keeps its value. Print jobs do not travel (they are rebuilt on demand).

Anyone can write such a file (its checksum is no signature), so an import trusts nothing in it beyond the event:

* **Rule profiles**: a version equal to the stored one of that slug and number is that one; any other is the
  event's own frozen copy (``RuleProfile.imported``), never offered to another event nor its slug's latest.
* **People**: an organiser's upload (``user``) names, for each person of the file (``people``), an existing
  account they may give roles (``mappable_accounts``: never a superuser, an account of the Django admin or with
  a site-wide role, nor another event's organiser) or a new account without a usable password. The
  installation's own command (no ``user``: restoring a backup) finds them by login name, and refuses a file
  giving a role to a site administrator.

An import only INSERTs (the append-only tables refuse UPDATE), in one transaction: a bad file saves
nothing. Primary keys are kept when none of them is taken on this installation (restoring a backup on an
empty one: links and printed QR codes keep working), else renumbered in the same order (ids inside draws
too).
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.db.models import Q
from django.db.models.functions import Lower

from common.errors import ConflictError, gettext_noop
from common.names import full_name
from infra import clock
from rulings.models import Appeal, AppealDecision, Approval, ChoiceMade, Ruling, RulingVoid
from scoring.models import Hand, RuleProfile
from tournament.clocks.services import running_round_ids, schedule_round_tasks
from tournament.competition import unit_standings
from tournament.events.services import RESERVED_SLUGS, SLUG_RE
from tournament.models import (
    ClockEvent,
    ClockFiring,
    Draw,
    Event,
    EventClockSettings,
    EventRole,
    Group,
    GroupEntry,
    HandAllowance,
    LeadReport,
    Match,
    Pair,
    PairRemoval,
    PairRestoration,
    PairSubstitution,
    Player,
    RefereeUnit,
    Registration,
    ResultDecision,
    Round,
    RoundClock,
    RoundClosure,
    Stage,
    Team,
    Unit,
)
from tournament.staff.services import USERNAME_RE, add_creator, ascii_of
from tournament.transfer import codec
from tournament.transfer.codec import TransferError

log = logging.getLogger(__name__)

_MATCH = "match__round__stage__event"
_RULING = "ruling__match__round__stage__event"

# Every table of an event, in an order where each row's references come before it, with the path from a
# row to its event. tests/tournament/test_transfer.py checks that every model of the apps is here or in
# NOT_EXPORTED.
TABLES: tuple[tuple[type[models.Model], str], ...] = (
    (Event, "pk"),
    (EventClockSettings, "event"),
    (EventRole, "event"),
    (Unit, "event"),
    (Player, "event"),
    (Team, "event"),
    (Pair, "event"),
    (Registration, "event"),
    (RefereeUnit, "event"),
    (Stage, "event"),
    (Group, "stage__event"),
    (GroupEntry, "group__stage__event"),
    (Round, "stage__event"),
    (RoundClock, "round__stage__event"),
    (Match, "round__stage__event"),
    (Draw, "event"),
    (Hand, _MATCH),
    (Ruling, _MATCH),
    (RulingVoid, _RULING),
    (Approval, _RULING),
    (ChoiceMade, _RULING),
    (Appeal, _RULING),
    (AppealDecision, "appeal__" + _RULING),
    (PairRemoval, "pair__event"),
    (PairRestoration, "removal__pair__event"),
    (PairSubstitution, "event"),
    (ResultDecision, _MATCH),
    (RoundClosure, "round__stage__event"),
    (ClockEvent, "round__stage__event"),
    (ClockFiring, "round__stage__event"),
    (HandAllowance, _MATCH),
    (LeadReport, _MATCH),
)
NOT_EXPORTED = {"tournament.printjob": "rebuilt on demand", "scoring.ruleprofile": "travels as data.profiles",
                "tournament.apitoken": "secrets: made anew where the event goes",
                "tournament.staffaccount": "an account's own state (one-time password, demo), not the event's",
                "scoring.matchsnapshot": "the kept engine state: the next write replays and keeps it anew",
                "tournament.groupstanding": "the kept group standings: the first read ranks each group anew",
                "tournament.unitlink": "secrets: registration links are made anew where the event goes",
                "tournament.unitentryversion": "a link's registration history, read through its link",
                "tournament.registrationwindow": "the registration before the event, over once it travels",
                "tournament.sidecode": "secrets: the sides' codes are issued anew where the event goes",
                "tournament.handentry": "the players' entries on the way to a hand: the hands travel",
                "tournament.entrystep": "the players' entries on the way to a hand: the hands travel"}
USER_FIELDS = ("username", "first_name", "last_name", "email", "is_active")
PROFILE_FIELDS = ("slug", "version", "name", "data", "source")


def label(model) -> str:
    return model._meta.label_lower


def _columns(model) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields]


def _is_user(f) -> bool:
    return f.is_relation and f.related_model is get_user_model()


# --------------------------------------------------------------------------- export
def export_event(event: Event, *, now=None) -> dict:
    """The whole event as the file's payload (a dict: ``codec.dumps`` gives the text).

    Read in one transaction (on PostgreSQL a repeatable-read snapshot), so a backup taken while tables
    are playing holds no hand or ruling without what it refers to.
    """
    fresh = not connection.in_atomic_block  # inside a caller's transaction its snapshot rules
    with transaction.atomic():
        if fresh and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        return _export(event, now)


def _export(event: Event, now) -> dict:
    tables, user_ids, profile_ids = {}, set(), {event.profile_id}
    for model, path in TABLES:
        columns = _columns(model)
        # every row, a removed stage's too (its voided draws point at it): the base manager hides none
        rows = list(model._base_manager.filter(**{path: event.pk}).order_by("pk")
                    .values(*[f.attname for f in columns]))
        for row in rows:
            user_ids.update(row[f.attname] for f in columns if _is_user(f) and row[f.attname] is not None)
            profile_ids.update(row[f.attname] for f in columns
                               if f.is_relation and f.related_model is RuleProfile)
        tables[label(model)] = [{k: codec.encode(v) for k, v in row.items()} for row in rows]
    referees = list(Match.referees.through.objects.filter(match__round__stage__event=event)
                    .order_by("pk").values_list("match_id", "user_id"))
    user_ids.update(user for _match, user in referees)
    profiles = list(RuleProfile.objects.filter(pk__in=profile_ids).order_by("pk")
                    .values("id", *PROFILE_FIELDS, "created_at"))
    users = list(get_user_model().objects.filter(pk__in=user_ids).order_by("pk").values("id", *USER_FIELDS))
    data = {
        "users": users,
        "profiles": [{k: codec.encode(v) for k, v in p.items()} for p in profiles],
        "tables": tables,
        "match_referees": [list(pair) for pair in referees],
    }
    return codec.envelope(event.slug, data, now or clock.now())


def export_text(event: Event) -> str:
    return codec.dumps(export_event(event))


# --------------------------------------------------------------------------- import
@dataclass
class ImportReport:
    event: Event
    kept_ids: bool
    rows: dict = field(default_factory=dict)
    created_users: list = field(default_factory=list)
    ids: dict = field(default_factory=dict)  # {"app.model": {old id: new id}}


class _Ids:
    """Old id -> new id per table (what ``codec.remap_draw`` asks)."""

    def __init__(self, maps):
        self.maps = maps

    def of(self, model, old):
        return self.maps[label(model)][old]

    def pair(self, old):
        return self.of(Pair, old)

    def player(self, old):
        return self.of(Player, old)

    def match(self, old):
        return self.of(Match, old)

    def unit(self, old):
        return self.of(Unit, old)


def check_slug(slug: str) -> str:
    slug = (slug or "").strip().lower()
    if not SLUG_RE.match(slug) or slug in RESERVED_SLUGS:
        raise TransferError(gettext_noop("The web address may hold lower-case letters, digits and hyphens only."),
                            field="slug")
    if Event.objects.filter(slug=slug).exists():
        raise _taken(slug)
    return slug


def _taken(slug: str) -> ConflictError:
    """The refusal of a taken address, offering a free one."""
    n = 2
    while Event.objects.filter(slug=f"{slug[:75]}-{n}").exists():
        n += 1
    return ConflictError(gettext_noop("An event with the web address %(slug)s exists already: import the file "
                                      "under a new web address, for example %(free)s."), field="slug", slug=slug,
                         free=f"{slug[:75]}-{n}")


# --------------------------------------------------------------------------- the people a file names
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


def _damaged(where) -> TransferError:
    return TransferError(gettext_noop("The export file is damaged at %(where)s: nothing was imported."),
                         field="file", where=where)


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
        raise _damaged("users") from None
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


def import_event(raw: bytes | str, *, slug: str | None = None, user=None, accounts=None) -> ImportReport:
    """Create the event of an export file; ``slug`` gives it a new web address; ``user`` (the uploader) becomes
    one of its organisers. ``accounts`` ({file user id: account id here, or None for a new account}) maps the
    people of the file for an uploader (a person left out gets a new account); without ``user`` (the command)
    they are found by login name. One transaction: a refused file saves nothing (TransferError naming where
    the file is wrong, or the person whose account may not be given roles; ConflictError for a taken
    address)."""
    data = codec.parse(raw)
    where = "data"
    try:
        with transaction.atomic():
            tables = data["tables"]
            if set(tables) != {label(m) for m, _p in TABLES}:
                where = ", ".join(sorted(set(tables) ^ {label(m) for m, _p in TABLES}))
                raise KeyError(where)
            event_rows = tables[label(Event)]
            if len(event_rows) != 1:
                raise ValueError("one event")
            old_slug = event_rows[0]["slug"]
            event_rows[0]["slug"] = check_slug(slug or old_slug)
            where = "users"
            if user is None:
                users, created = _users_by_name(data)
            else:
                users, created = _users_mapped(data["users"], user, accounts or {})
            where = "profiles"
            profiles = _profiles(data["profiles"])
            if event_rows[0]["slug"] != old_slug:
                _pin_unit_lot(event_rows[0], old_slug, profiles)
            keep = not any(model._base_manager.filter(pk__in=[r["id"] for r in tables[label(model)]]).exists()
                           for model, _p in TABLES)
            maps = {label(get_user_model()): users, label(RuleProfile): profiles}
            report = ImportReport(event=None, kept_ids=keep, created_users=created, ids=maps)
            for model, _path in TABLES:
                maps[label(model)] = {}
                for index, row in enumerate(tables[label(model)]):
                    where = f"{label(model)} #{index + 1}"
                    if model is EventRole and row["role"] not in EventRole.Role.values:
                        raise ValueError(f"role {row['role']!r}")
                    maps[label(model)][row["id"]] = _insert(model, row, maps, keep)
                report.rows[label(model)] = len(tables[label(model)])
            where = "match_referees"
            through = Match.referees.through
            through.objects.bulk_create([through(match_id=maps[label(Match)][m], user_id=users[u])
                                         for m, u in data["match_referees"]])
            _reset_sequences()
            report.event = Event.objects.get(pk=maps[label(Event)][event_rows[0]["id"]])
            add_creator(report.event, user)
            _reschedule_clocks(report.event)
    except (ConflictError, TransferError):
        raise
    except IntegrityError:
        if where == f"{label(Event)} #1":  # another import took the address in the meantime
            raise _taken(event_rows[0]["slug"]) from None
        log.warning("event import refused at %s", where, exc_info=True)
        raise _damaged(where) from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ValidationError, DatabaseError) as exc:
        log.warning("event import refused at %s: %r", where, exc)
        raise _damaged(where) from None
    return report


def _users_by_name(data) -> tuple[dict, list]:
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


def _users_mapped(rows, by, accounts) -> tuple[dict, list]:
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


def _profiles(rows) -> dict:
    """Old profile id -> the version the imported event plays under here: the stored version of that slug and
    number when its data is the same, else the event's own frozen copy (``imported``: never offered to another
    event, never its slug's latest; the file's number when free, else the slug's next)."""
    found = {}
    for row in rows:
        same = RuleProfile.objects.filter(slug=row["slug"], version=row["version"]).first()
        if same is not None and same.data == row["data"]:
            found[row["id"]] = same.pk
            continue
        values = {k: row[k] for k in PROFILE_FIELDS}
        if same is not None:  # this installation's version of that number differs: keep both
            values["version"] = RuleProfile.objects.filter(slug=row["slug"]).order_by("-version")[0].version + 1
            values["source"] = f"{row['source']} ({row['slug']} v{row['version']})"[:300]
        created_at = RuleProfile._meta.get_field("created_at").to_python(row["created_at"])
        profile = RuleProfile(**values, created_at=created_at, imported=True)
        if not RuleProfile.objects.filter(pk=row["id"]).exists():
            profile.pk = row["id"]
        profile.validate_data()
        profile.save_base(raw=True, force_insert=True)
        found[row["id"]] = profile.pk
    return found


def _pin_unit_lot(row, old_slug, profiles):
    """Under a new slug the unit standings' tie lot keeps the seed it had (by default it is made from the slug)."""
    scoring = row["unit_scoring"] if isinstance(row["unit_scoring"], dict) else {}
    probe = Event(slug=old_slug, unit_scoring=scoring, profile=RuleProfile.objects.get(pk=profiles[row["profile_id"]]))
    if probe.ranks_units and not scoring.get("lot_seed"):
        row["unit_scoring"] = {**scoring, "lot_seed": unit_standings.lot_seed(probe)}


def _insert(model, row, maps, keep) -> int:
    """One row, its references renumbered, written as it was (raw: no auto_now_add, no save() hooks)."""
    columns = _columns(model)
    if set(row) != {f.attname for f in columns}:
        raise KeyError(sorted(set(row) ^ {f.attname for f in columns}))
    values = {}
    for f in columns:
        value = row[f.attname]
        if f.primary_key:
            value = value if keep else None
        elif f.is_relation and value is not None:
            value = maps[label(f.related_model)][value]
        elif value is not None and not isinstance(f, models.JSONField):
            value = f.to_python(value)
        values[f.attname] = value
    if model is Draw:
        values["params"], values["result"] = codec.remap_draw(row["kind"], row["params"], row["result"],
                                                              _Ids(maps))
    if model is RoundClock:
        values["task_ids"] = {}  # the other installation's Celery tasks: rescheduled after the commit
    obj = model(**values)
    obj.save_base(raw=True, force_insert=True)
    return obj.pk


def _reset_sequences():
    """After rows with their own ids: the id sequences continue past them (PostgreSQL)."""
    statements = connection.ops.sequence_reset_sql(no_style(), [m for m, _p in TABLES] + [RuleProfile])
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def _reschedule_clocks(event: Event):
    """A clock that was running goes on here: its announcement and end are scheduled after the commit."""
    rounds = set(Round.objects.filter(stage__event=event).values_list("pk", flat=True))
    for round_id in sorted(rounds & set(running_round_ids())):
        transaction.on_commit(lambda round_id=round_id: schedule_round_tasks(round_id))

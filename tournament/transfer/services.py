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
* **People** (:mod:`tournament.transfer.people`): an organiser's upload (``user``) names, for each person of
  the file, an existing account they may give roles (``mappable_accounts``: never a superuser, an account of
  the Django admin or with a site-wide role, nor another event's organiser) or a new account without a usable
  password. The installation's own command (no ``user``: restoring a backup) finds them by login name, and
  refuses a file giving a role to a site administrator.

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

from common.errors import ConflictError, gettext_noop
from infra import clock
from scoring.models import RuleProfile
from tournament.clocks.services import running_round_ids, schedule_round_tasks
from tournament.competition import unit_standings
from tournament.models import Draw, Event, EventRole, Match, Pair, Player, Round, RoundClock, Unit
from tournament.models.event import RESERVED_SLUGS, SLUG_RE
from tournament.staff.services import add_creator
from tournament.transfer import codec, people
from tournament.transfer.codec import TransferError
from tournament.transfer.tables import PROFILE_FIELDS, TABLES, USER_FIELDS, columns_of, is_user, label

log = logging.getLogger(__name__)

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
        columns = columns_of(model)
        # every row, a removed stage's too (its voided draws point at it): the base manager hides none
        rows = list(model._base_manager.filter(**{path: event.pk}).order_by("pk")
                    .values(*[f.attname for f in columns]))
        for row in rows:
            user_ids.update(row[f.attname] for f in columns if is_user(f) and row[f.attname] is not None)
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
                users, created = people.users_by_name(data)
            else:
                users, created = people.users_mapped(data["users"], user, accounts or {})
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
                    maps[label(model)][row["id"]] = _insert(model, row, maps, keep=keep)
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
        raise codec.damaged(where) from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ValidationError, DatabaseError) as exc:
        log.warning("event import refused at %s: %r", where, exc)
        raise codec.damaged(where) from None
    return report


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


def _insert(model, row, maps, *, keep) -> int:
    """One row, its references renumbered, written as it was (raw: no auto_now_add, no save() hooks)."""
    columns = columns_of(model)
    names = {f.attname for f in columns}
    # a column added since the file was written takes its default; one the file holds that no model has is refused
    unknown = set(row) - names
    missing = [f for f in columns if f.attname not in row]
    if unknown or any(not f.has_default() for f in missing):
        raise KeyError(sorted(unknown | {f.attname for f in missing if not f.has_default()}))
    row = {**row, **{f.attname: f.get_default() for f in missing}}
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

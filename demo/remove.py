"""``manage.py remove_demo``: the demo's events and accounts out of a database that is to hold real events.

The demo events are the ones at the demo's addresses (``demo``, ``demo-swiss``, ``demo-union``) whose
organisers are all demo accounts; the demo accounts are the ones :func:`demo.accounts.is_demo_account` names.
Nothing is removed (:class:`DemoInUse`) while a demo account works at a real event (a role, a table it
referees, a record it made there): the organiser takes the role away or gives it to a real account first.
One transaction: everything goes, or nothing does.

An event is never deleted by the application (its entries and records are protected, its hands, rulings,
draws and clock records append-only): the demo events' rows are deleted here table by table, the tables an
event export lists (``tournament.transfer.tables.TABLES``) and the few it leaves out, by primary key (the
foreign keys are checked at the commit). On PostgreSQL the append-only tables' row triggers refuse any
DELETE: only for this deletion, inside its transaction, they are switched off (and on again before the
commit), which the database's owner (who ran ``migrate``) may do.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import ProtectedError

from demo.accounts import demo_users
from demo.event import DEMO_SLUG
from demo.swiss import SWISS_SLUG, UNION_SLUG
from infra.appendonly import AppendOnlyModel
from scoring.models import MatchSnapshot
from tournament import pagecache
from tournament.competition import search
from tournament.models import ApiToken, Event, EventRole, GroupStanding, Match, PrintJob, RefereeUnit, StaffAccount
from tournament.transfer.tables import TABLES

DEMO_SLUGS = (DEMO_SLUG, SWISS_SLUG, UNION_SLUG)


class DemoInUse(Exception):
    """The demo cannot be removed as it is (the message says why and what to do)."""


@dataclass
class Removed:
    events: list = field(default_factory=list)     # the removed events' names and addresses
    accounts: list = field(default_factory=list)   # the removed accounts' login names
    kept: list = field(default_factory=list)       # events at a demo address kept as real events


def _demo_events(users) -> tuple[list, list]:
    """(the demo events, the events at a demo address with an organiser who is not a demo account)."""
    ids = {user.pk for user in users}
    demo, kept = [], []
    for event in Event.objects.filter(slug__in=DEMO_SLUGS).order_by("slug"):
        organisers = set(event.staff.filter(role=EventRole.Role.ORGANISER).values_list("user_id", flat=True))
        (demo if organisers <= ids else kept).append(event)
    return demo, kept


def _check_not_in_use(users, events) -> None:
    roles = (EventRole.objects.filter(user__in=users).exclude(event__in=events)
             .select_related("user", "event").order_by("event__slug", "user__username"))
    refereed = (Match.objects.filter(referees__in=users).exclude(round__stage__event__in=events)
                .values_list("round__stage__event__slug", flat=True).distinct())
    units = (RefereeUnit.objects.filter(user__in=users).exclude(event__in=events)
             .values_list("event__slug", flat=True).distinct())
    tokens = (ApiToken.objects.filter(user__in=users, event__isnull=False).exclude(event__in=events)  # site-wide: the account's own
              .values_list("event__slug", flat=True).distinct())
    lines = [f"  {row.user.username} ({row.get_role_display()}) @ {row.event.name} (/events/{row.event.slug}/)"
             for row in roles]
    lines += [f"  /events/{slug}/: a demo account referees a table" for slug in refereed]
    lines += [f"  /events/{slug}/: a demo account has a referee's unit" for slug in units]
    lines += [f"  /events/{slug}/: a demo account has an API token" for slug in tokens]
    if lines:
        raise DemoInUse("演示账号仍在真实赛事中担任角色，未删除任何数据。请先在该赛事的“工作人员”页面移除这些角色"
                        "（或改由真实账号担任），再运行 remove_demo。\n"
                        "Demo accounts hold roles in real events; nothing was removed. Take these roles away on the "
                        "event's staff page (or give them to real accounts), then run remove_demo again:\n"
                        + "\n".join(lines))


def _append_only_tables() -> list[str]:
    return [model._meta.db_table for model in apps.get_models() if issubclass(model, AppendOnlyModel)]


def _row_triggers(enable: bool) -> None:
    """PostgreSQL: the append-only tables' row triggers off (or on again), within the open transaction."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                       "WHERE NOT t.tgisinternal AND t.tgname = c.relname || '_append_only'")
        tables = {row[0] for row in cursor.fetchall()} & set(_append_only_tables())
        for table in sorted(tables):
            trigger = connection.ops.quote_name(f"{table}_append_only")
            cursor.execute(f"ALTER TABLE {connection.ops.quote_name(table)} "
                           f"{'ENABLE' if enable else 'DISABLE'} TRIGGER {trigger}")


def _rows_of(event) -> list:
    """[(model, primary keys)] of every row of the event, parents first."""
    match = "round__stage__event"
    tables = [*TABLES, (MatchSnapshot, f"match__{match}"), (PrintJob, "event"), (ApiToken, "event"),
              (GroupStanding, "group__stage__event")]   # the kept rows the export leaves out (NOT_EXPORTED)
    return [(model, list(model._base_manager.filter(**{path: event.pk}).values_list("pk", flat=True)))
            for model, path in tables]


def _delete_event(event) -> None:
    """Every row of the event (children first; many-to-many rows with their rows)."""
    rows = _rows_of(event)
    StaffAccount.objects.filter(made_for=event).update(made_for=None)
    with connection.cursor() as cursor:
        for model, pks in reversed(rows):
            if not pks:
                continue
            for m2m in model._meta.many_to_many:
                through = m2m.remote_field.through
                for fk in through._meta.get_fields():
                    if fk.many_to_one and fk.related_model is model:
                        through.objects.filter(**{f"{fk.name}__in": pks}).delete()
            table, column = connection.ops.quote_name(model._meta.db_table), connection.ops.quote_name(model._meta.pk.column)
            for start in range(0, len(pks), 500):
                chunk = pks[start:start + 500]
                cursor.execute(f"DELETE FROM {table} WHERE {column} IN ({', '.join(['%s'] * len(chunk))})", chunk)
    pagecache.changed(event.pk)
    search.invalidate(event.pk)


def remove_demo() -> Removed:
    """Delete the demo events and the demo accounts (see the module); returns what went."""
    try:
        return _remove()
    except IntegrityError as exc:  # a row of another table still names a demo event's row
        raise DemoInUse("演示数据仍被其他记录引用，未删除任何数据。\n"
                        f"Other records still point at the demo's; nothing was removed: {exc}") from exc


def _remove() -> Removed:
    with transaction.atomic():
        users = demo_users()
        events, kept = _demo_events(users)
        _check_not_in_use(users, events)
        removed = Removed(events=[f"{event.name} (/events/{event.slug}/)" for event in events],
                          accounts=[user.username for user in users],
                          kept=[f"{event.name} (/events/{event.slug}/)" for event in kept])
        if not events and not users:
            return removed
        try:
            connection.check_constraints()  # PostgreSQL alters no table with foreign-key checks still pending
            _row_triggers(enable=False)
            for event in events:
                _delete_event(event)
            connection.check_constraints()  # every row naming a demo row went too; then the triggers on again
            _row_triggers(enable=True)
        except IntegrityError:
            raise
        except DatabaseError as exc:
            raise DemoInUse("无法删除演示赛事的记录（请以数据库所有者身份运行）。\n"
                            f"The demo events' records could not be deleted (run as the database's owner): {exc}") from exc
        try:
            get_user_model().objects.filter(pk__in=[user.pk for user in users]).delete()
        except ProtectedError as exc:
            names = sorted({str(obj._meta.verbose_name) for obj in exc.protected_objects})
            raise DemoInUse("演示账号在真实赛事中留有记录，未删除任何数据。\n"
                            "Demo accounts made records in real events; nothing was removed: "
                            + ", ".join(names)) from exc
        connection.check_constraints()  # the deferred foreign keys now, inside the transaction
    return removed

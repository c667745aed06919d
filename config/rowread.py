"""Hot reads in one statement whose SQL is built once per process and, on PostgreSQL, planned once per
connection.

    prepared_cursor()               a cursor whose statements PostgreSQL prepares (plans once per connection)
    first_rows([(sql, params), ...]) their first rows, the statements sent in one round trip
    leading(sql, params, check)     a statement sent first with the block's next first_rows (its round trip)
    send_lead()                     send the waiting ones now
    later(sql, params), deferring()  writes sent together just before the request's transaction commits
    flush()                         send them now (a read that may depend on them follows)
    next_id_sql(model)              a new primary key read with a row, so that its INSERT can be deferred
    JoinedRead(model, relations, defer=(), extra={})
        .get(pk, *extra_params)     the row ``pk`` with its to-one relations cached on it, or None
    insert(instance)                INSERT a new row (no signals), its SQL built once per model
    update(instance, fields)        UPDATE those fields of a row (no signals), its SQL built once per field set

A write at a table reads its match with the pairs, round, rule profile, the table's hand allowance and
the kept engine state: the ORM would compile that seven-table join on every request (about a millisecond
of Python) and PostgreSQL would plan it every time (more than a millisecond: planning a join that size
costs more than running it). The rows a write then stores (the hand or ruling, the match's result) are
written the same way by :func:`insert` and :func:`update`: for the rows of the hot path only, whose
writers need none of the model signals (``scoring.snapshots.applying``). :class:`JoinedRead` builds the SQL once from the models' metadata (a field
added to a model is read without a change here) and makes the instances as the ORM does (``from_db``,
the fields' and the backend's converters, the relations' caches); :func:`prepared_cursor` runs it as a
prepared statement, so its plan is made once per database connection (connections are kept:
``CONN_MAX_AGE``).

Prepared statements do not pass through a connection pooler in transaction mode (PgBouncer before 1.21):
``DJANGO_DB_PREPARE=0`` turns them off (the statements then run as ordinary ones).
"""
from __future__ import annotations

import contextvars
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.backends.utils import CursorDebugWrapper
from django.db.models import OneToOneRel

try:  # the PostgreSQL backend's server-binding cursor (psycopg 3); absent without psycopg
    from django.db.backends.postgresql.base import ServerBindingCursor
except ImportError:  # pragma: no cover - psycopg is a requirement; SQLite alone still works
    ServerBindingCursor = None


def _default():
    """The default database's wrapper itself (``django.db.connection`` is a proxy that looks it up again on
    every attribute read: dozens of times a write here)."""
    return connections[DEFAULT_DB_ALIAS]


def _joins(connection) -> bool:
    """Are statements prepared and round trips joined here? PostgreSQL (psycopg 3), unless turned off."""
    return (connection.vendor == "postgresql" and ServerBindingCursor is not None
            and getattr(settings, "DATABASE_PREPARED_STATEMENTS", True))


if ServerBindingCursor is not None:
    class _PreparingCursor(ServerBindingCursor):
        """psycopg's server-binding cursor asked to prepare every statement it runs (psycopg keeps the
        prepared statements per connection, keyed by the statement's text)."""

        def execute(self, query, params=None, *, prepare=None, binary=None):
            return super().execute(query, params, prepare=params is not None, binary=binary)


class _LoggedPrepared(CursorDebugWrapper):
    """Django's logging cursor for prepared statements: it logs each statement's text as sent (psycopg
    keeps no text of a prepared statement for Django to read back)."""

    def debug_sql(self, sql=None, params=None, use_last_executed_query=False, many=False):
        return super().debug_sql(sql, params, False, many)


def prepared_cursor():
    """A cursor on the default connection whose statements PostgreSQL prepares; elsewhere (SQLite, or
    ``DATABASE_PREPARED_STATEMENTS`` off) Django's own cursor. Queries are logged and counted as Django's."""
    connection = _default()
    if not _joins(connection):
        return connection.cursor()
    raw = _raw_cursor(connection)
    return _LoggedPrepared(raw, connection) if connection.queries_logged else connection.make_cursor(raw)


def _raw_cursor(connection):
    """psycopg's preparing cursor on the connection, set up as Django sets up its own cursors."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        return _PreparingCursor(connection.connection)


def first_rows(statements):
    """Run ``statements`` ([(SQL, parameters)]) in order and return each one's first row (None for none, or
    for a statement that returns no rows). On PostgreSQL they are sent together in one round trip
    (psycopg's pipeline mode; a transaction's BEGIN goes with them), each one still run after the one
    before it; one by one while queries are logged (``DEBUG``, a test counting them). A :func:`leading`
    statements still waiting go first, in the order their blocks began, and their checks are called in that
    order before anything is returned."""
    waiting = _lead.get()
    if not waiting:
        return _first_rows(statements)
    leads = list(waiting)
    waiting.clear()
    try:
        rows = _first_rows([lead[:2] for lead in leads] + list(statements))
    except Exception:
        waiting[:0] = leads   # not sent: still first in the next round trip (or send_lead)
        raise
    for lead, row in zip(leads, rows):
        lead[2](row)
    return rows[len(leads):]


_lead = contextvars.ContextVar("leading_statement", default=None)


@contextmanager
def leading(sql, params, check):
    """Inside the block, send this statement first with the next :func:`first_rows` (in its round trip)
    and call ``check(row)`` with its first row (``check`` may raise: the caller's rows are then not
    returned). For what every write of a request begins with, the idempotency key's claim, when the
    write's first statements are a :func:`first_rows` read: one round trip less. A block that may send
    nothing calls :func:`send_lead` before it ends (the statements still go); the first_rows that carries
    them must not run in a savepoint that may be rolled back (``config.db.write`` makes none inside a
    request's transaction).
    Blocks may nest: their statements go together, the outer block's first (its check called first). A
    statement the block sends through Django's cursors (an ORM query before its first_rows read) sends them
    first, in a round trip of their own (:func:`_lead_first`)."""
    lead = (sql, params, check)
    waiting = _lead.get()
    if waiting is None:
        token = _lead.set([lead])
        try:
            with _default().execute_wrapper(_lead_first):
                yield
        finally:
            _lead.reset(token)
        return
    waiting.append(lead)
    try:
        yield
    finally:
        waiting[:] = [other for other in waiting if other is not lead]


def send_lead():
    """Send the :func:`leading` statements still waiting now (alone)."""
    if _lead.get():
        first_rows([])


def _lead_first(execute, sql, params, many, context):
    """Django's execute wrapper inside a :func:`leading` block: the waiting statements go before any other
    (they are taken off the list as they are sent, so their own statements pass straight through)."""
    send_lead()
    return execute(sql, params, many, context)


def joins() -> bool:
    """Are statements prepared and round trips joined on the default connection (PostgreSQL)?"""
    return _joins(_default())


def _first_rows(statements):
    connection = _default()
    if not _joins(connection) or connection.queries_logged:
        rows = []
        for sql, params in statements:
            with prepared_cursor() as cursor:
                cursor.execute(sql, params)
                rows.append(cursor.fetchone() if cursor.description else None)
        return rows
    # psycopg's own cursors: queries are not logged here, and Django's wrapper would only pass them on
    cursors = [_raw_cursor(connection) for _ in statements]
    try:
        with connection.wrap_database_errors:
            with connection.connection.pipeline():
                for cursor, (sql, params) in zip(cursors, statements):
                    cursor.execute(sql, params)
            return [cursor.fetchone() if _has_rows(cursor) else None for cursor in cursors]
    finally:
        for cursor in cursors:
            cursor.close()


def _has_rows(cursor):
    """Did the statement return rows (a SELECT, a RETURNING)? psycopg's ``description`` would build a
    column object for each of a joined read's seventy columns to say so."""
    result = cursor.pgresult
    return result is not None and result.nfields > 0


_deferred = contextvars.ContextVar("deferred_writes", default=None)


def later(sql, params):
    """Run this write (its result not needed) just before the request's transaction commits, sent with the
    request's other such writes in one round trip (:func:`deferring`); at once outside a request's
    transaction. Only for a row nothing reads again in the request."""
    queue = _deferred.get()
    if queue is None:
        with prepared_cursor() as cursor:
            cursor.execute(sql, params)
    else:
        queue.append((sql, params))


def flush():
    """Send the request's :func:`later` writes now (before a read that may depend on them)."""
    queue = _deferred.get()
    if queue:
        statements = list(queue)
        queue.clear()
        first_rows(statements)


@contextmanager
def deferring():
    """Collect the :func:`later` writes of the block and run them at its end (not after an error, nor when
    the transaction is to be rolled back): the request's transaction (``config.db.request_transaction``)."""
    token = _deferred.set([])
    try:
        yield
        queue = _deferred.get()
        if queue and not transaction.get_rollback():
            first_rows(queue + ([("COMMIT", None)] if _commits_here() else []))
    finally:
        _deferred.reset(token)


def _commits_here():
    """May the block's writes carry the COMMIT in their round trip? Only when the block is the outermost
    transaction on PostgreSQL with round trips joined: Django's own commit that follows then finds the
    transaction ended and sends nothing (psycopg), and its commit hooks run as usual."""
    connection = _default()
    return _joins(connection) and not connection.queries_logged and len(connection.atomic_blocks) == 1


@dataclass
class _Part:
    """One table of the read: its model, the fields read, their converters and where the row goes."""

    model: type
    fields: list
    converters: list
    relation: object = None       # the base model's field (forward) or OneToOneRel (reverse) it fills
    nullable: bool = False


def q(name):
    """A table or column name quoted for the connection's SQL (``table`` is a column of Match)."""
    connection = _default()
    return connection.ops.quote_name(name)


def _converters(field, alias):
    connection = _default()
    col = field.get_col(alias)
    return [(conv, col) for conv in connection.ops.get_db_converters(col) + field.get_db_converters(connection)]


class JoinedRead:
    """One row of ``model`` with to-one relations, read in one statement (see the module's note).

    ``relations``: names on ``model`` of forward foreign keys / one-to-ones and of reverse one-to-ones
    (absent → cached as None). ``defer``: names of ``model``'s fields and ``"relation__field"`` names not
    read (deferred, as ``.defer``; the primary key is always read).
    ``extra``: ``{attribute: SQL}`` selected into attributes of the row (SQL, or a function of the
    database vendor giving it); the SQL refers to the base table as ``t0`` and its ``%s`` take
    :meth:`get`'s extra parameters in order.
    """

    def __init__(self, model, relations, *, defer=(), extra=None):
        self.model, self.relations, self.defer, self.extra = model, tuple(relations), set(defer), dict(extra or {})
        self._built = None

    def _build(self):
        connection = _default()
        opts = self.model._meta
        base = _Part(self.model, [f for f in opts.concrete_fields if f.primary_key or f.name not in self.defer], [])
        parts, joins = [base], []
        for n, name in enumerate(self.relations, start=1):
            alias, relation = f"t{n}", opts.get_field(name)
            related = relation.related_model
            fields = [f for f in related._meta.concrete_fields if f"{name}__{f.name}" not in self.defer]
            if isinstance(relation, OneToOneRel):   # reverse: the related row points at this one
                on, nullable = f"{alias}.{q(relation.field.column)} = t0.{q(opts.pk.column)}", True
            else:
                on, nullable = f"{alias}.{q(relation.target_field.column)} = t0.{q(relation.column)}", relation.null
            joins.append(f"{'LEFT ' if nullable else ''}JOIN {q(related._meta.db_table)} {alias} ON {on}")
            parts.append(_Part(related, fields, [], relation, nullable))
        columns = []
        for n, part in enumerate(parts):
            part.converters = [_converters(f, f"t{n}") for f in part.fields]
            columns += [f"t{n}.{q(f.column)}" for f in part.fields]
        vendor = connection.vendor
        columns += [f"({sql(vendor) if callable(sql) else sql}) AS {name}" for name, sql in self.extra.items()]
        sql = (f"SELECT {', '.join(columns)} FROM {q(opts.db_table)} t0 {' '.join(joins)} "
               f"WHERE t0.{q(opts.pk.column)} = %s")
        self._built = (connection.vendor, sql, parts)
        return self._built

    def get(self, pk, *extra_params):
        statement = self.statement(pk, *extra_params)
        with prepared_cursor() as cursor:
            cursor.execute(*statement)
            return self.from_row(cursor.fetchone())

    def statement(self, pk, *extra_params):
        """The read as (SQL, parameters), for :func:`first_rows`; :meth:`from_row` makes its row the object."""
        connection = _default()
        built = self._built
        if built is None or built[0] != connection.vendor:
            built = self._build()
        return built[1], [*extra_params, pk]

    def from_row(self, row):
        connection = _default()
        if row is None:
            return None
        parts = self._built[2]
        instances, at = [], 0
        for part in parts:
            values = list(row[at:at + len(part.fields)])
            at += len(part.fields)
            for i, converters in enumerate(part.converters):
                for conv, col in converters:
                    values[i] = conv(values[i], col, connection)
            if part.nullable and values[part.fields.index(part.model._meta.pk)] is None:
                instances.append(None)
                continue
            instances.append(part.model.from_db(connection.alias, [f.attname for f in part.fields], values))
        obj = instances[0]
        for part, related in zip(parts[1:], instances[1:]):
            part.relation.set_cached_value(obj, related)
            if related is not None and isinstance(part.relation, OneToOneRel):
                part.relation.field.set_cached_value(related, obj)
        for name, value in zip(self.extra, row[at:]):
            setattr(obj, name, value)
        return obj


_statements: dict = {}


def _statement(key, build):
    found = _statements.get(key)
    if found is None:
        found = _statements[key] = build()
    return found


def next_id_sql(model):
    """SQL giving a new primary key of ``model`` from its sequence (PostgreSQL; NULL elsewhere), to read
    with a row (:class:`JoinedRead` ``extra``) so that :func:`insert` can be deferred."""
    table, column = model._meta.db_table, model._meta.pk.column
    return lambda vendor: f"nextval(pg_get_serial_sequence('{table}', '{column}'))" if vendor == "postgresql" \
        else "NULL"


def insert(instance, *, defer=False):
    """INSERT ``instance`` (a new row of a model with an automatic primary key) as ``save()`` would, with
    no signals, in one prepared statement; sets its primary key. For a hot path whose rows no signal
    receiver needs to see (``scoring.snapshots.applying`` says so for hands and rulings). ``defer`` with
    the primary key already set (:func:`next_id_sql`): sent with the request's :func:`later` writes."""
    connection = _default()
    model = type(instance)
    opts = model._meta
    given = instance.pk is not None

    def build():
        fields = [f for f in opts.concrete_fields if given or f is not opts.pk]
        sql = (f"INSERT INTO {q(opts.db_table)} ({', '.join(q(f.column) for f in fields)}) "
               f"VALUES ({', '.join(['%s'] * len(fields))})")
        return fields, sql if given else f"{sql} RETURNING {q(opts.pk.column)}"

    fields, sql = _statement((connection.vendor, "insert", model, given), build)
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    if defer and given:
        later(sql, values)
    else:
        with prepared_cursor() as cursor:
            cursor.execute(sql, values)
            if not given:
                instance.pk = cursor.fetchone()[0]
    instance._state.adding, instance._state.db = False, connection.alias
    return instance


def update(instance, fields, *, defer=False):
    """UPDATE the ``fields`` (names) of ``instance``'s row as ``save(update_fields=...)`` would, with no
    signals, in one prepared statement (``defer``: with the request's :func:`later` writes)."""
    connection = _default()
    model = type(instance)
    opts = model._meta

    def build():
        chosen = [opts.get_field(name) for name in fields]
        sql = (f"UPDATE {q(opts.db_table)} SET {', '.join(f'{q(f.column)} = %s' for f in chosen)} "
               f"WHERE {q(opts.pk.column)} = %s")
        return chosen, sql

    chosen, sql = _statement((connection.vendor, "update", model, tuple(fields)), build)
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in chosen]
    if defer:
        later(sql, [*values, instance.pk])
        return
    with prepared_cursor() as cursor:
        cursor.execute(sql, [*values, instance.pk])

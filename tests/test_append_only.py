"""Append-only has no holes (issue #17 item 8): every append-only table has its PostgreSQL triggers
(UPDATE, DELETE and TRUNCATE refused, draws included), and ``session_replication_role = replica`` (which
skips triggers) is a superuser's power only: the application's role cannot take it."""
import datetime as dt
import importlib

import pytest
from django.apps import apps
from django.db import DatabaseError, connection, transaction

from infra.appendonly import ALLOW_TRUNCATE_SETTING, AppendOnlyError, AppendOnlyModel
from scoring.profile_store import latest_profile
from tournament.models import Draw, Event

MIGRATION = importlib.import_module("tournament.migrations.0018_tokens_append_only")
LATER = [importlib.import_module(f"tournament.migrations.{name}")   # append-only tables added since
         for name in ("0021_unit_links", "0029_self_scoring")]
postgresql_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="the triggers exist on PostgreSQL only")


def append_only_tables():
    return sorted(m._meta.db_table for m in apps.get_models() if issubclass(m, AppendOnlyModel))


def test_the_migration_covers_every_append_only_model():
    assert sorted(MIGRATION.APPEND_ONLY_TABLES + [t for m in LATER for t in m.APPEND_ONLY_TABLES]) == append_only_tables()
    assert "tournament_draw" in MIGRATION.APPEND_ONLY_TABLES


@pytest.fixture
def draw(db):
    day = dt.date(2026, 12, 5)
    event = Event.objects.create(slug="ao", name="ao", start_date=day, end_date=day,
                                 profile=latest_profile("shenzhen-community"))
    return Draw.objects.create(event=event, kind=Draw.Kind.GROUPS, seed="42", result={"groups": []})


def test_the_application_refuses_to_change_a_draw(draw):
    with pytest.raises(AppendOnlyError):
        Draw.objects.filter(pk=draw.pk).update(seed="43")
    with pytest.raises(AppendOnlyError):
        draw.delete()


@postgresql_only
def test_every_append_only_table_has_its_row_and_truncate_triggers(db):
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname, t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                       "WHERE NOT t.tgisinternal")
        triggers = set(cursor.fetchall())
    for table in append_only_tables():
        assert (table, f"{table}_append_only") in triggers, table
        assert (table, f"{table}_no_truncate") in triggers, table


@postgresql_only
@pytest.mark.parametrize("sql", [
    "UPDATE tournament_draw SET seed = '43' WHERE id = %s",
    "DELETE FROM tournament_draw WHERE id = %s",
])
def test_postgresql_refuses_updating_or_deleting_a_draw(draw, sql):
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [draw.pk])
    draw.refresh_from_db()
    assert draw.seed == "42"


@postgresql_only
@pytest.mark.parametrize("table", MIGRATION.APPEND_ONLY_TABLES)
def test_postgresql_refuses_truncate(db, table):
    with pytest.raises(DatabaseError, match="TRUNCATE .* refused"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL {ALLOW_TRUNCATE_SETTING} = 'off'")
            cursor.execute(f"TRUNCATE {table} CASCADE")


@postgresql_only
def test_truncating_a_parent_table_cascading_into_draws_is_refused(draw):
    with pytest.raises(DatabaseError, match="TRUNCATE .* refused"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no pending foreign-key checks of the inserts
            cursor.execute(f"SET LOCAL {ALLOW_TRUNCATE_SETTING} = 'off'")
            cursor.execute("TRUNCATE tournament_event CASCADE")
    assert Draw.objects.filter(pk=draw.pk).exists()


@postgresql_only
def test_replica_mode_is_a_superusers_power_only(db):
    """``session_replication_role = replica`` turns every trigger off; only a superuser may set it, so the
    application connecting as an ordinary role (docs/ARCHITECTURE.md) cannot bypass append-only."""
    with pytest.raises(DatabaseError, match="permission denied|must be superuser"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("CREATE ROLE tractor_app_probe NOLOGIN")
            cursor.execute("SET LOCAL ROLE tractor_app_probe")
            cursor.execute("SET session_replication_role = replica")

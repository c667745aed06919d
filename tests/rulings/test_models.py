"""The audit trail is append-only, in the application and (on PostgreSQL) in the database itself."""
import pytest
from django.db import connection, transaction
from django.db.utils import DatabaseError

from infra.appendonly import AppendOnlyError
from rulings import services
from rulings.models import Ruling, RulingVoid


@pytest.fixture
def ruling(table):
    match, users = table
    return services.record_ruling(match, users["referee"], "delay", "NS", note="第一次")


def test_a_ruling_records_who_when_table_hand_profile_and_rule(ruling, table, frozen_now):
    match, users = table
    assert ruling.recorded_by == users["referee"]
    assert ruling.table == match.table and ruling.hand_number == 1
    assert ruling.profile_id == match.profile_id and ruling.profile_version == match.profile.version
    assert ruling.clause == "第十七条（九）" and ruling.note == "第一次"
    assert ruling.sanction["kinds"] == ["warning"] and "警告" in ruling.sanction["explanation"]


def test_recorded_at_comes_from_the_clock(table, frozen_now):
    match, users = table
    ruling = services.record_ruling(match, users["referee"], "delay", "NS")
    assert ruling.recorded_at == frozen_now.at


def test_saving_again_is_refused(ruling):
    ruling.note = "changed"
    with pytest.raises(AppendOnlyError):
        ruling.save()


@pytest.mark.parametrize("action", ["update", "delete"])
def test_queryset_update_and_delete_are_refused(ruling, action):
    query = Ruling.objects.filter(pk=ruling.pk)
    with pytest.raises(AppendOnlyError):
        query.update(note="x") if action == "update" else query.delete()


def test_deleting_one_row_is_refused(ruling):
    with pytest.raises(AppendOnlyError):
        ruling.delete()


def test_a_ruling_is_voided_once_only(ruling, table):
    match, users = table
    services.void_ruling(ruling, users["referee"], "记错了")
    with pytest.raises(services.RulingError):
        services.void_ruling(ruling, users["chief"])
    assert RulingVoid.objects.filter(ruling=ruling).count() == 1


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the trigger exists on PostgreSQL only")
@pytest.mark.parametrize("table_name, sql", [
    ("rulings_ruling", "UPDATE rulings_ruling SET note = 'edited' WHERE id = %s"),
    ("rulings_ruling", "DELETE FROM rulings_ruling WHERE id = %s"),
    ("rulings_rulingvoid", "UPDATE rulings_rulingvoid SET reason = 'edited' WHERE ruling_id = %s"),
])
def test_postgresql_itself_refuses_raw_updates_and_deletes(ruling, table, table_name, sql):
    match, users = table
    services.void_ruling(ruling, users["referee"], "记错了")
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [ruling.pk])
    ruling.refresh_from_db()
    assert ruling.note == "第一次"


def test_postgresql_trigger_is_installed_on_every_table(db):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute("SELECT event_object_table FROM information_schema.triggers "
                       "WHERE trigger_name LIKE 'rulings_%%_append_only'")
        tables = {row[0] for row in cursor.fetchall()}
    assert tables == {"rulings_ruling", "rulings_rulingvoid", "rulings_approval", "rulings_choicemade",
                      "rulings_appeal", "rulings_appealdecision"}
